/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ClientClosedException;
import io.hybris.DescribedKey;
import io.hybris.DescribedKeyPage;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.Outcome;
import io.hybris.InvalidRequestException;
import io.hybris.KeyPage;
import io.hybris.NotEnoughCloudsException;
import io.hybris.SweepReport;
import io.hybris.TransactionAbortedException;
import io.hybris.VersionInfo;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.VersionName;
import io.hybris.testkit.LinearizabilityChecker.Verdict;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The end-to-end suite of the Hybris protocol: every metadata store implementation runs it by extending this
 * class and supplying {@link #newMetadataStore()}. Clouds are three in-memory stores ({@code c0, c1, c2},
 * f=1) wrapped in the testkit's fault decorators, so each test injects exactly the fault it is about and
 * asserts the value returned, the clouds contacted and the exception thrown.
 */
public abstract class HybrisContract extends HybrisContractFixture {
    // ------------------------------------------------------------------ round trips

    @Test
    void roundTripsEmptyOneByteBinaryAndLargeValues() {
        Hybris h = openPlain();
        byte[] binary = new byte[256];
        for (int i = 0; i < 256; i++) {
            binary[i] = (byte) i;
        }
        byte[] big = new byte[32 << 20];
        new Random(42).nextBytes(big);
        h.put(C, "empty", new byte[0]);
        h.put(C, "one", new byte[] {7});
        h.put(C, "binary", binary);
        h.put(C, "big", big);
        assertThat(h.get(C, "empty")).hasValueSatisfying(v -> assertThat(v).isEmpty());
        assertThat(h.get(C, "one")).hasValueSatisfying(v -> assertThat(v).containsExactly(7));
        assertThat(h.get(C, "binary")).hasValueSatisfying(v -> assertThat(v).isEqualTo(binary));
        assertThat(h.get(C, "big")).hasValueSatisfying(v -> assertThat(sha(v)).isEqualTo(sha(big)));
        assertThat(h.describe(C, "big")).hasValueSatisfying(i -> {
            assertThat(i.size()).isEqualTo(big.length);
            assertThat(i.clouds()).hasSize(2).doesNotHaveDuplicates();
        });
    }

    @Test
    void keysWithUnusualCharactersRoundTrip() {
        Hybris h = openPlain();
        List<String> keys = List.of("a/b/c", "#hash#", "100%", " spaced key ", ".", "..", ".hidden", "ключ",
                "日本語", "emoji-\uD83D\uDE00", "x".repeat(256));
        for (String k : keys) {
            h.put(C, k, bytes("v:" + k));
        }
        for (String k : keys) {
            assertThat(str(h.get(C, k))).as(k).isEqualTo("v:" + k);
        }
        assertThat(h.list(C)).containsExactlyInAnyOrderElementsOf(keys);
    }

    @Test
    void overwriteReturnsNewestAndDeleteHidesTheKey() {
        Hybris h = openPlain();
        assertThat(h.get(C, "k")).isEmpty();
        h.put(C, "k", bytes("v1"));
        h.put(C, "k", bytes("v2"));
        assertThat(str(h.get(C, "k"))).isEqualTo("v2");
        assertThat(h.describe(C, "k")).map(VersionInfo::sequence).hasValue(2L);
        h.delete(C, "k");
        assertThat(h.get(C, "k")).isEmpty();
        assertThat(h.describe(C, "k")).isEmpty();
        h.delete(C, "k"); // deleting a deleted key is a no-op
        h.delete(C, "never-written");
        assertThat(h.get(C, "never-written")).isEmpty();
        h.put(C, "k", bytes("v3"));
        assertThat(str(h.get(C, "k"))).isEqualTo("v3");
        assertThat(h.describe(C, "k")).map(VersionInfo::sequence).hasValue(4L);
    }

    @Test
    void putCopiesTheCallersArray() {
        Hybris h = openPlain();
        byte[] v = bytes("original");
        CompletableFuture<VersionInfo> f = h.putAsync(C, "k", v);
        v[0] = 'X';
        f.join();
        assertThat(str(h.get(C, "k"))).isEqualTo("original");
    }

    @Test
    void asyncTwinsAndClose() throws Exception {
        Hybris h = openPlain();
        h.putAsync(C, "a", bytes("1")).get(20, TimeUnit.SECONDS);
        assertThat(h.getAsync(C, "a").get(20, TimeUnit.SECONDS).map(String::new)).hasValue("1");
        h.tputAsync(C, Map.of("b", bytes("2"), "c", bytes("3"))).get(20, TimeUnit.SECONDS);
        assertThat(h.listAsync(C).get(20, TimeUnit.SECONDS)).containsExactlyInAnyOrder("a", "b", "c");
        h.deleteAsync(C, "a").get(20, TimeUnit.SECONDS);
        assertThat(h.get(C, "a")).isEmpty();
        h.close();
        assertThatThrownBy(() -> h.get(C, "b")).isInstanceOf(ClientClosedException.class);
        assertThatThrownBy(() -> h.putAsync(C, "b", bytes("x"))).isInstanceOf(ClientClosedException.class);
    }

    // ------------------------------------------------------------------ list

    @Test
    void listExcludesTombstonesAndPagesThroughTenThousandKeys() {
        Hybris h = openPlain();
        int n = 10_000;
        int perTput = 50; // within every metadata store's transaction limit (Consul: 64 operations)
        for (int batch = 0; batch < n / perTput; batch++) {
            Map<String, byte[]> values = new LinkedHashMap<>();
            for (int i = batch * perTput; i < (batch + 1) * perTput; i++) {
                values.put(String.format("key-%05d", i), new byte[] {(byte) i});
            }
            h.tput(C, values);
        }
        for (int i = 0; i < n; i += 100) {
            h.delete(C, String.format("key-%05d", i));
        }
        List<String> all = h.list(C);
        assertThat(all).hasSize(n - n / 100).doesNotHaveDuplicates().doesNotContain("key-00000", "key-09900")
                .contains("key-00001", "key-09999").isSorted();

        List<String> paged = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            KeyPage page = h.list(C, "", cursor, 777);
            assertThat(page.keys().size()).isLessThanOrEqualTo(777);
            paged.addAll(page.keys());
            cursor = page.nextCursor().orElse(null);
            pages++;
        } while (cursor != null);
        assertThat(paged).isEqualTo(all);
        assertThat(pages).isEqualTo((int) Math.ceil((n - n / 100) / 777.0));
        assertThat(h.list(C, "key-012", null, 1000).keys()).hasSize(99).allMatch(k -> k.startsWith("key-012"));
        assertThat(h.list("other", "", null, 10).keys()).isEmpty();
    }

    @Test
    void listDescribedGivesTheListedKeysWithTheVersionsDescribeGives() {
        Hybris h = openPlain();
        for (int i = 0; i < 25; i++) {
            h.put(C, String.format("d-%02d", i), bytes("value " + i));
        }
        h.put(C, "d-03", bytes("a newer value"));
        h.delete(C, "d-07");
        h.put(C, "e-00", bytes("outside the prefix"));

        List<DescribedKey> described = new ArrayList<>();
        String cursor = null;
        do {
            DescribedKeyPage page = h.listDescribed(C, "d-", cursor, 10);
            KeyPage keys = h.list(C, "d-", cursor, 10);
            assertThat(page.keys()).extracting(DescribedKey::key).isEqualTo(keys.keys());
            assertThat(page.nextCursor()).isEqualTo(keys.nextCursor());
            described.addAll(page.keys());
            cursor = page.nextCursor().orElse(null);
        } while (cursor != null);
        assertThat(described).hasSize(24).extracting(DescribedKey::key).doesNotContain("d-07", "e-00");
        for (DescribedKey d : described) {
            assertThat(d.version()).as(d.key()).isEqualTo(h.describe(C, d.key()).orElseThrow());
        }
        assertThat(described.get(3).version().size()).isEqualTo("a newer value".length());
        assertThatThrownBy(() -> h.listDescribed(C, "", null, 0)).isInstanceOf(InvalidRequestException.class);
    }

    // ------------------------------------------------------------------ faulty clouds (f = 1, three clouds)

    @Test
    void corruptCloudIsDetectedByHashAndSkipped() {
        List<RecordingCloudStore> clouds = recording(CorruptingCloudStore::of);
        EventRecorder events = new EventRecorder();
        Hybris h = open(config(clouds).listener(events));
        h.put(C, "k", bytes("precious"));
        assertThat(h.describe(C, "k").orElseThrow().clouds()).contains("c0");
        for (int i = 0; i < 5; i++) {
            assertThat(str(h.get(C, "k"))).isEqualTo("precious");
        }
        assertThat(events.count("c0", CloudOperation.GET, Outcome.CORRUPT)).isGreaterThanOrEqualTo(1);
        assertThat(events.count("c0", CloudOperation.GET, Outcome.OK)).isZero();
        assertThat(clouds.get(1).count(RecordingCloudStore.Op.GET) + clouds.get(2).count(RecordingCloudStore.Op.GET))
                .isEqualTo(5);
    }

    @Test
    void staleCloudIsDetectedByHashAndSkipped() {
        List<RecordingCloudStore> clouds = recording(StaleCloudStore::of);
        EventRecorder events = new EventRecorder();
        Hybris h = open(config(clouds).listener(events).gcEnabled(false));
        h.put(C, "k", bytes("old"));
        h.put(C, "k", bytes("new"));
        assertThat(h.describe(C, "k").orElseThrow().clouds()).contains("c0");
        assertThat(str(h.get(C, "k"))).isEqualTo("new");
        assertThat(clouds.get(0).count(RecordingCloudStore.Op.GET)).isEqualTo(1);
        assertThat(events.count("c0", CloudOperation.GET, Outcome.CORRUPT)).isEqualTo(1);
    }

    @Test
    void oversizedReplyIsCutAtTheRecordedSize() {
        OversizedCloudStore[] oversized = new OversizedCloudStore[1];
        List<RecordingCloudStore> clouds = recording(s -> oversized[0] = OversizedCloudStore.of(s, 256L << 20));
        EventRecorder events = new EventRecorder();
        Hybris h = open(config(clouds).listener(events));
        byte[] value = new byte[1000];
        new Random(1).nextBytes(value);
        h.put(C, "k", value);
        assertThat(h.describe(C, "k").orElseThrow().clouds()).contains("c0");
        oversized[0].resetCounters();
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
        assertThat(events.count("c0", CloudOperation.GET, Outcome.OVERSIZED)).isEqualTo(1);
        assertThat(oversized[0].bytesServed()).isLessThanOrEqualTo(value.length + 1);
    }

    @Test
    void downCloudIsSkippedForGetsAndReplacedBySecondaryForPuts() {
        UnavailableCloudStore[] down = new UnavailableCloudStore[1];
        List<RecordingCloudStore> clouds = recording(s -> {
            down[0] = UnavailableCloudStore.of(s);
            down[0].setActive(false);
            return down[0];
        });
        EventRecorder events = new EventRecorder();
        Hybris h = open(config(clouds).listener(events));
        h.put(C, "before", bytes("v0"));
        assertThat(h.describe(C, "before").orElseThrow().clouds()).contains("c0");
        down[0].setActive(true);

        assertThat(str(h.get(C, "before"))).isEqualTo("v0");
        assertThat(events.count("c0", CloudOperation.GET, Outcome.ERROR)).isLessThanOrEqualTo(1);

        h.put(C, "during", bytes("v1"));
        assertThat(h.describe(C, "during").orElseThrow().clouds()).containsExactlyInAnyOrder("c1", "c2");
        assertThat(str(h.get(C, "during"))).isEqualTo("v1");
        assertThat(clouds.get(1).count(RecordingCloudStore.Op.PUT, "during")).isEqualTo(1);
        assertThat(clouds.get(2).count(RecordingCloudStore.Op.PUT, "during")).isEqualTo(1);
    }

    @Test
    void slowCloudPastItsTimerIsOvertakenBySecondaries() {
        SlowCloudStore[] slow = new SlowCloudStore[1];
        List<RecordingCloudStore> clouds = recording(s -> {
            slow[0] = SlowCloudStore.of(s, Duration.ofSeconds(15));
            slow[0].setActive(false);
            return slow[0];
        });
        EventRecorder events = new EventRecorder();
        Hybris h = open(config(clouds).listener(events));
        h.put(C, "k", bytes("v"));
        assertThat(h.describe(C, "k").orElseThrow().clouds()).contains("c0");
        slow[0].setActive(true);

        long t0 = System.nanoTime();
        assertThat(str(h.get(C, "k"))).isEqualTo("v");
        h.put(C, "k2", bytes("v2"));
        long elapsed = System.nanoTime() - t0;
        assertThat(Duration.ofNanos(elapsed)).isLessThan(Duration.ofSeconds(10));
        assertThat(h.describe(C, "k2").orElseThrow().clouds()).doesNotContain("c0");
        assertThat(str(h.get(C, "k2"))).isEqualTo("v2");
    }

    @Test
    void putFailsCleanlyWhenMoreThanFCloudsAreDown() {
        List<RecordingCloudStore> clouds = List.of(RecordingCloudStore.of(UnavailableCloudStore.of(raw.get(0))),
                RecordingCloudStore.of(UnavailableCloudStore.of(raw.get(1))), RecordingCloudStore.of(raw.get(2)));
        Hybris h = open(config(clouds));
        assertThatThrownBy(() -> h.put(C, "k", bytes("v")))
                .isInstanceOf(NotEnoughCloudsException.class)
                .hasMessageContaining("needs 2 clouds")
                .satisfies(e -> assertThat(e.getSuppressed()).hasSize(2));
        assertThat(h.get(C, "k")).isEmpty();
        assertThat(h.describe(C, "k")).isEmpty();
        await().atMost(AWAIT).until(() -> objectsOn(raw.get(2), "#") == 0);
    }

    @Test
    void lateUploadsToSlowCloudsAreNotLeftBehind() {
        RecordingCloudStore behindSlow = RecordingCloudStore.of(raw.get(0));
        SlowCloudStore slow = SlowCloudStore.ofPuts(behindSlow, Duration.ofSeconds(2));
        Hybris h = open(config(List.of(slow, raw.get(1), raw.get(2))).timerInitial(Duration.ofMillis(200)));
        h.put(C, "k", bytes("v"));
        assertThat(h.describe(C, "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c1", "c2");
        // the slow upload lands after the commit; its unreferenced copy is then deleted (a call is recorded as it
        // starts: the deletion has ended once the copy is gone)
        await().atMost(AWAIT).until(() -> behindSlow.count(RecordingCloudStore.Op.PUT, "k#") == 1
                && behindSlow.count(RecordingCloudStore.Op.DELETE, "k#") == 1 && objectsOn(raw.get(0), "#") == 0);
        assertThat(str(h.get(C, "k"))).isEqualTo("v");
    }

    // ------------------------------------------------------------------ worst-case GET

    @Test
    void getDuringConcurrentOverwriteOnEventuallyConsistentCloudsFinishesViaWatchRestart() throws Exception {
        List<EventuallyConsistentCloudStore> clouds = raw.stream().map(EventuallyConsistentCloudStore::of).toList();
        EventRecorder events = new EventRecorder();
        Hybris writer = open(config(clouds).clientId("writer"));
        Hybris reader = open(config(clouds).clientId("reader").listener(events));
        writer.put(C, "k", bytes("v1")); // committed, but not yet visible on any cloud
        CompletableFuture<Optional<byte[]>> read = reader.getAsync(C, "k");
        await().atMost(AWAIT).until(() -> events.worstCaseGets() == 1);
        writer.put(C, "k", bytes("v2")); // the watch fires: the GET restarts with the new metadata
        await().atMost(AWAIT).until(() -> events.restarts() >= 1);
        assertThat(read).isNotDone();
        clouds.forEach(EventuallyConsistentCloudStore::makeVisible);
        assertThat(str(read.get(20, TimeUnit.SECONDS))).isIn("v1", "v2");
    }

    @Test
    void getGivesUpAtTheDeadlineWhenNoCloudHasAValidCopy() {
        List<CloudStore> clouds = raw.stream().map(s -> (CloudStore) CorruptingCloudStore.of(s)).toList();
        Hybris h = open(config(clouds).deadline(Duration.ofSeconds(2)));
        h.put(C, "k", bytes("v"));
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> h.get(C, "k"))
                .isInstanceOf(io.hybris.DeadlineExceededException.class)
                .hasMessageContaining("no copy matching the metadata hash");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(6));
    }

    // ------------------------------------------------------------------ TPUT

    @Test
    void tputIsAtomicAndVisibleAllAtOnce() {
        Hybris h = openPlain();
        h.put(C, "a", bytes("a0"));
        h.tput(C, Map.of("a", bytes("a1"), "b", bytes("b1"), "c", bytes("c1")));
        assertThat(str(h.get(C, "a"))).isEqualTo("a1");
        assertThat(str(h.get(C, "b"))).isEqualTo("b1");
        assertThat(str(h.get(C, "c"))).isEqualTo("c1");
        assertThat(h.describe(C, "a").orElseThrow().sequence()).isEqualTo(2);
    }

    @Test
    void tputAbortsWhenAConcurrentNewerPutWinsAndDeletesItsUploads() throws Exception {
        List<GatedCloudStore> gated = raw.stream().map(s -> GatedCloudStore.of(s, k -> k.contains("_txclient.")))
                .toList();
        Hybris tx = open(config(gated).clientId("txclient"));
        Hybris other = open(config(raw).clientId("other"));
        CompletableFuture<Map<String, VersionInfo>> tput = tx.tputAsync(C, Map.of("a", bytes("tx-a"), "b", bytes("tx-b")));
        await().atMost(AWAIT).until(() -> gated.stream().mapToInt(g -> g.awaitBlocked(1, Duration.ZERO) ? 1 : 0)
                .sum() >= 2);
        other.put(C, "b", bytes("other-1"));
        other.put(C, "b", bytes("other-2")); // timestamp (2, other) beats the transaction's (1, txclient)
        gated.forEach(GatedCloudStore::open);
        assertThatThrownBy(() -> tput.get(20, TimeUnit.SECONDS))
                .hasCauseInstanceOf(TransactionAbortedException.class)
                .hasMessageContaining("[b]");
        assertThat(other.get(C, "a")).isEmpty();
        assertThat(str(other.get(C, "b"))).isEqualTo("other-2");
        await().atMost(AWAIT).until(() -> raw.stream().mapToLong(s -> objectsOn(s, "_txclient")).sum() == 0);
    }

    @Test
    void tputWinsAgainstAConcurrentOlderWrite() {
        List<GatedCloudStore> gated = raw.stream().map(s -> GatedCloudStore.of(s, k -> k.contains("_zz-tx.")))
                .toList();
        Hybris tx = open(config(gated).clientId("zz-tx"));
        Hybris other = open(config(raw).clientId("aa-other"));
        CompletableFuture<Map<String, VersionInfo>> tput = tx.tputAsync(C, Map.of("a", bytes("tx-a"), "b", bytes("tx-b")));
        await().atMost(AWAIT).until(() -> gated.stream().mapToInt(g -> g.awaitBlocked(1, Duration.ZERO) ? 1 : 0)
                .sum() >= 2);
        other.put(C, "b", bytes("other-1")); // timestamp (1, aa-other) < (1, zz-tx)
        gated.forEach(GatedCloudStore::open);
        tput.join();
        assertThat(str(other.get(C, "a"))).isEqualTo("tx-a");
        assertThat(str(other.get(C, "b"))).isEqualTo("tx-b");
    }

    // ------------------------------------------------------------------ garbage collection

    @Test
    void overwritesLeaveOnlyTheCurrentVersionOnTheClouds() {
        Hybris h = openPlain();
        for (int i = 1; i <= 20; i++) {
            h.put(C, "k", bytes("v" + i));
        }
        VersionInfo info = h.describe(C, "k").orElseThrow();
        String current = "#" + info.version();
        await().atMost(AWAIT).untilAsserted(() -> {
            for (CloudStore cloud : raw) {
                List<String> keys = cloud.list("hybris/box/k#").stream().map(CloudObject::key).toList();
                if (info.clouds().contains(cloud.id())) {
                    assertThat(keys).singleElement().asString().endsWith(current);
                } else {
                    assertThat(keys).isEmpty();
                }
            }
        });
        h.delete(C, "k");
        await().atMost(AWAIT).until(() -> raw.stream().mapToLong(s -> s.list("hybris/").size()).sum() == 0);
    }

    @Test
    void sweepRemovesOrphansOlderThanGraceAndNothingElse() {
        MutableClock clock = new MutableClock();
        Hybris h = open(configOnClock(clock).gcGrace(Duration.ofMinutes(10)));
        h.put(C, "live", bytes("live-value"));
        // what a client killed between upload and commit leaves behind: objects no metadata references
        String orphanNew = new VersionName(C, "never-committed", 1, "deadclient", VersionName.NO_WRITE_ID).render("hybris/");
        String orphanNewer = new VersionName(C, "live", 7, "deadclient", VersionName.NO_WRITE_ID).render("hybris/");
        for (CloudStore cloud : raw.subList(0, 2)) {
            cloud.put(orphanNew, bytes("orphan"));
            cloud.put(orphanNewer, bytes("orphan"));
            cloud.put("other-app/data.bin", bytes("not ours"));
            cloud.put("hybris/box/not-a-hybris-name", bytes("not ours either"));
        }
        // a latency probe object its client could not delete (the client's folder under .probe/)
        raw.get(2).put("hybris/.probe/deadclient/0", new byte[16]);
        SweepReport young = h.sweepOrphans();
        assertThat(young.deleted()).isZero();
        assertThat(young.tooYoung()).isEqualTo(5);
        assertThat(young.referenced()).isEqualTo(2);

        clock.advance(Duration.ofMinutes(11));
        SweepReport old = h.sweepOrphans();
        assertThat(old.deleted()).isEqualTo(5);
        assertThat(old.referenced()).isEqualTo(2);
        assertThat(raw.get(2).get("hybris/.probe/deadclient/0", 100)).isEmpty();
        for (CloudStore cloud : raw.subList(0, 2)) {
            assertThat(cloud.get(orphanNew, 100)).isEmpty();
            assertThat(cloud.get(orphanNewer, 100)).isEmpty();
            assertThat(cloud.get("other-app/data.bin", 100)).isPresent();
            assertThat(cloud.get("hybris/box/not-a-hybris-name", 100)).isPresent();
        }
        assertThat(str(h.get(C, "live"))).isEqualTo("live-value");
        assertThat(h.sweepOrphans().deleted()).isZero();
    }

    @Test
    void periodicSweepCollectsOrphansInTheBackground() {
        MutableClock clock = new MutableClock();
        Hybris h = open(configOnClock(clock).gcGrace(Duration.ofMinutes(1)).sweepInterval(Duration.ofMillis(200)));
        h.put(C, "live", bytes("v"));
        String orphan = new VersionName(C, "crashed", 1, "deadclient", VersionName.NO_WRITE_ID).render("hybris/");
        raw.get(0).put(orphan, bytes("orphan"));
        clock.advance(Duration.ofMinutes(2));
        await().atMost(AWAIT).until(() -> raw.get(0).get(orphan, 100).isEmpty());
        assertThat(str(h.get(C, "live"))).isEqualTo("v");
    }

    // ------------------------------------------------------------------ bad input

    @Test
    void badInputIsRejectedBeforeAnythingIsWritten() {
        List<RecordingCloudStore> clouds = raw.stream().map(RecordingCloudStore::of).toList();
        Hybris h = open(config(clouds).maxValueSize(1024));
        byte[] v = bytes("v");
        assertThatThrownBy(() -> h.put(C, null, v)).isInstanceOf(InvalidRequestException.class)
                .hasMessage("key must not be null");
        assertThatThrownBy(() -> h.put(C, "", v)).isInstanceOf(InvalidRequestException.class)
                .hasMessage("key must not be empty");
        assertThatThrownBy(() -> h.put(C, "x".repeat(257), v)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("257 bytes").hasMessageContaining("maximum is 256");
        assertThatThrownBy(() -> h.put(C, "tab\there", v)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("U+0009").hasMessageContaining("index 3");
        assertThatThrownBy(() -> h.put(C, "bad\uD800", v)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("unpaired surrogate").hasMessageContaining("U+D800");
        assertThatThrownBy(() -> h.put("Upper", "k", v)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("'U'").hasMessageContaining("index 0");
        assertThatThrownBy(() -> h.put(null, "k", v)).isInstanceOf(InvalidRequestException.class)
                .hasMessage("container must not be null");
        assertThatThrownBy(() -> h.put(C, "k", (byte[]) null)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> h.put(C, "k", (java.io.InputStream) null, 1)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> h.put(C, "k", (java.nio.file.Path) null)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> h.put(C, "k", new java.io.ByteArrayInputStream(v), -2))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("length -2");
        assertThatThrownBy(() -> h.put(C, "k", new byte[1025])).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("1025 bytes").hasMessageContaining("hybris.value.max-size=1024");
        assertThatThrownBy(() -> h.tput(C, Map.of())).isInstanceOf(InvalidRequestException.class);
        Map<String, byte[]> withNull = new HashMap<>();
        withNull.put("ok", v);
        withNull.put("bad", null);
        assertThatThrownBy(() -> h.tput(C, withNull)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> h.get(C, "bad\u0000")).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> h.list(C, "", null, 0)).isInstanceOf(InvalidRequestException.class);
        for (RecordingCloudStore c : clouds) {
            assertThat(c.count(RecordingCloudStore.Op.PUT)).isZero();
        }
        assertThat(metadata.list(C, "", null, 10).entries()).isEmpty();
        assertThat(metadata.read(new MetadataKey(C, "ok"))).isEmpty();
    }

    // ------------------------------------------------------------------ concurrency

    /**
     * Eight clients race on three keys while a {@link RotatingCloudFaults} moves one fault (outage, slowness, stale or corrupt
     * reads) from cloud to cloud, never more than one faulty cloud at a time (f=1). A failed write is recorded
     * with an unknown outcome (nothing, if it says nothing was committed); a failed read observed nothing.
     */
    @Test
    void concurrentClientsProduceALinearizableHistory() throws Exception {
        int clientsCount = 8;
        int opsPerClient = 200; // at least; and on until the nemesis injected minFaults, at most maxOpsPerClient
        int minFaults = 100;
        int maxOpsPerClient = 3000;
        List<String> keys = List.of("x", "y", "z");
        RegisterHistory history = new RegisterHistory();
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clientsCount);
        int faults;
        try (RotatingCloudFaults nemesis = RotatingCloudFaults.over(raw, 42, Duration.ofMillis(30))) {
            List<Hybris> hs = new ArrayList<>();
            for (int c = 0; c < clientsCount; c++) {
                hs.add(open(config(nemesis.clouds()).clientId("client-" + c)));
            }
            nemesis.start();
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < clientsCount; c++) {
                int client = c;
                futures.add(pool.submit(() -> {
                    Random random = new Random(client);
                    Hybris h = hs.get(client);
                    for (int i = 0; i < maxOpsPerClient && (i < opsPerClient || nemesis.injected() < minFaults); i++) {
                        String key = keys.get(random.nextInt(keys.size()));
                        int dice = random.nextInt(10);
                        Kind kind = dice < 4 ? Kind.WRITE : dice < 5 ? Kind.DELETE : Kind.READ;
                        String value = kind == Kind.WRITE ? "c" + client + "-" + i : null;
                        long t0 = System.nanoTime();
                        try {
                            if (kind == Kind.WRITE) {
                                h.put(C, key, bytes(value));
                            } else if (kind == Kind.DELETE) { // what it returned: of two deletes, one deleted
                                value = RegisterHistory.deleteResult(h.delete(C, key).isPresent());
                            } else {
                                value = str(h.get(C, key));
                            }
                            history.add(new Op(client, kind, key, value, t0, System.nanoTime()));
                        } catch (HybrisException e) {
                            failed.incrementAndGet();
                            if (kind != Kind.READ && !(e instanceof NotEnoughCloudsException)) {
                                history.add(new Op(client, kind, key, value, t0, RegisterHistory.UNKNOWN_RESPONSE));
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
            faults = nemesis.stop();
            for (String key : keys) { // every key readable with the faults off; the reads join the history
                long t0 = System.nanoTime();
                String got = str(hs.get(0).get(C, key));
                history.add(new Op(clientsCount, Kind.READ, key, got, t0, System.nanoTime()));
            }
        } finally {
            pool.shutdownNow();
        }
        List<Op> ops = history.operations();
        assertThat(faults).as("faults injected").isPositive();
        assertThat(failed.get()).as("failed calls").isLessThan(clientsCount * opsPerClient / 10);
        assertThat(ops).anyMatch(o -> o.kind() == Kind.READ && o.value() != null);
        assertThat(LinearizabilityChecker.overlappingPairs(ops)).as("same-key pairs of overlapping calls with a write")
                .isGreaterThan(100);
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(ops);
        assertThat(result.byKey()).as("verdict per key (%d states explored)%s", result.statesExplored(),
                        LinearizabilityChecker.historyOnFailure(result, ops))
                .isEqualTo(keys.stream().collect(Collectors.toMap(k -> k, k -> Verdict.LINEARIZABLE)));
    }
}
