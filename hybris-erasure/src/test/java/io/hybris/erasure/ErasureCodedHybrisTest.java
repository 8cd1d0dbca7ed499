/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ErasurePolicy;
import io.hybris.HybrisListener;
import io.hybris.NotEnoughCloudsException;
import io.hybris.ReadSettings;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.CorruptingCloudStore;
import io.hybris.testkit.OversizedCloudStore;
import io.hybris.testkit.RecordingCloudStore;
import io.hybris.testkit.SlowCloudStore;
import io.hybris.testkit.StaleCloudStore;
import io.hybris.testkit.UnavailableCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Erasure coding end to end through {@link Hybris}: in-memory clouds behind the testkit's fault decorators and the
 * in-memory metadata store; each test asserts the value read and which clouds were touched.
 */
class ErasureCodedHybrisTest {

    private static final String C = "photos";
    private final List<Hybris> clients = new ArrayList<>();
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    private static byte[] value(int size, int seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    private HybrisConfig.Builder builder(List<? extends CloudStore> clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata)
                .erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(2).erasureCoder("java")
                .timerInitial(Duration.ofSeconds(10)).reads(ReadSettings.builder().hedge(false).build()).timerMin(Duration.ofSeconds(10))
                .deadline(Duration.ofSeconds(30)).probeInterval(Duration.ZERO);
        clouds.forEach(b::cloud);
        return b;
    }

    /** Short timers, for the tests about slow clouds (the others keep timers long so a busy machine cannot fire them). */
    private static HybrisConfig.Builder shortTimers(HybrisConfig.Builder b) {
        return b.timerInitial(Duration.ofMillis(300)).reads(ReadSettings.builder().hedge(false).build()).timerMin(Duration.ofMillis(100));
    }

    private Hybris open(HybrisConfig.Builder b) {
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    /** Objects a cloud holds under the Hybris prefix, with their sizes. */
    private static List<CloudObject> objects(CloudStore cloud) {
        return cloud.list("hybris/");
    }

    @Test
    void putStoresOneChunkPerCloudAndGetDecodesFromTheFastestK() {
        List<RecordingCloudStore> clouds = List.of(RecordingCloudStore.of(new InMemoryCloudStore("c0")),
                RecordingCloudStore.of(new InMemoryCloudStore("c1")), RecordingCloudStore.of(new InMemoryCloudStore("c2")));
        Hybris h = open(builder(clouds));
        byte[] v = value(1001, 1);
        h.put(C, "k", v);
        VersionInfo info = h.describe(C, "k").orElseThrow();
        assertThat(info.clouds()).containsExactlyInAnyOrder("c0", "c1", "c2");
        assertThat(info.size()).isEqualTo(1001);
        for (RecordingCloudStore c : clouds) {
            assertThat(objects(c)).hasSize(1);
            assertThat(objects(c).get(0).size()).as(c.id()).isEqualTo(501); // ceil(1001 / 2)
            c.reset();
        }
        assertThat(h.get(C, "k")).hasValue(v);
        long gets = clouds.stream().mapToLong(c -> c.count(RecordingCloudStore.Op.GET, "/" + C + "/")).sum();
        assertThat(gets).isEqualTo(2); // k chunks, no more
    }

    /** A client with fewer than k of a version's chunk clouds configured says so at once, not at the deadline. */
    @Test
    void aClientWithFewerThanKOfTheChunkCloudsConfiguredSaysSo() {
        List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        Hybris writer = open(builder(clouds).clientId("writer"));
        writer.put(C, "k", value(1001, 3));
        Hybris reader = open(builder(List.of(clouds.get(0), new InMemoryCloudStore("other"))).f(0).clientId("reader")
                .erasurePolicy(ErasurePolicy.REPLICATION).deadline(Duration.ofSeconds(5)));
        assertThatThrownBy(() -> reader.get(C, "k")).hasMessageContaining("only 1 of them are configured");
    }

    @Test
    void oneCorruptCloudIsDetectedByItsChunkHash() {
        List<CorruptingCloudStore> corrupt = new ArrayList<>();
        List<RecordingCloudStore> clouds = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            CorruptingCloudStore c = CorruptingCloudStore.of(new InMemoryCloudStore("c" + i));
            c.setActive(false);
            corrupt.add(c);
            clouds.add(RecordingCloudStore.of(c));
        }
        Hybris h = open(builder(clouds));
        byte[] v = value(4096, 2);
        h.put(C, "k", v);
        for (int bad = 0; bad < 3; bad++) {
            corrupt.get(bad).setActive(true);
            clouds.forEach(RecordingCloudStore::reset);
            assertThat(h.get(C, "k")).as("cloud c%d corrupt", bad).hasValue(v);
            // the corrupt cloud was asked at most once, and the other two each delivered their chunk
            for (int i = 0; i < 3; i++) {
                if (i != bad) {
                    assertThat(clouds.get(i).count(RecordingCloudStore.Op.GET, "/" + C + "/"))
                            .as("c%d with c%d corrupt: %s", i, bad, clouds.get(i).calls())
                            .isEqualTo(1);
                }
            }
            corrupt.get(bad).setActive(false);
        }
    }

    @Test
    void oneCloudDownOrStaleOrOversizedStillReadsTheLatestValue() {
        UnavailableCloudStore down = UnavailableCloudStore.of(new InMemoryCloudStore("c0"));
        down.setActive(false);
        StaleCloudStore stale = StaleCloudStore.of(new InMemoryCloudStore("c1"));
        stale.setActive(false);
        OversizedCloudStore oversized = OversizedCloudStore.of(new InMemoryCloudStore("c2"), 1 << 20);
        oversized.setActive(false);
        Hybris h = open(builder(List.of(down, stale, oversized)));
        byte[] v1 = value(3000, 3);
        byte[] v2 = value(3000, 4);
        h.put(C, "k", v1);
        h.put(C, "k", v2);

        down.setActive(true);
        assertThat(h.get(C, "k")).as("c0 down").hasValue(v2);
        down.setActive(false);

        stale.setActive(true);
        assertThat(h.get(C, "k")).as("c1 stale").hasValue(v2);
        stale.setActive(false);

        oversized.setActive(true);
        assertThat(h.get(C, "k")).as("c2 oversized").hasValue(v2);
        assertThat(oversized.bytesServed()).isLessThan(1 << 20);
    }

    @Test
    void aSlowCloudIsOvertakenByTheSpareChunkWithoutWaitingForIt() {
        SlowCloudStore slow = SlowCloudStore.ofGets(new InMemoryCloudStore("c0"), Duration.ofSeconds(30));
        slow.setActive(false);
        List<CloudStore> clouds = List.of(slow, new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
        Hybris h = open(shortTimers(builder(clouds)));
        byte[] v = value(2048, 5);
        h.put(C, "k", v);
        slow.setActive(true);
        long t0 = System.nanoTime();
        try {
            assertThat(h.get(C, "k")).hasValue(v);
        } finally {
            slow.setActive(false);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void fourCloudsOneDownAtPutTimeUsesTheSpareCloud() {
        InMemoryCloudStore c0 = new InMemoryCloudStore("c0");
        UnavailableCloudStore down = UnavailableCloudStore.of(c0);
        List<CloudStore> clouds = List.of(down, new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"),
                new InMemoryCloudStore("c3"));
        Hybris h = open(builder(clouds));
        byte[] v = value(10_000, 6);
        h.put(C, "k", v);
        assertThat(h.describe(C, "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c1", "c2", "c3");
        assertThat(objects(c0)).isEmpty();
        assertThat(h.get(C, "k")).hasValue(v);
    }

    @Test
    void aSlowCloudAtPutTimeGetsASecondaryAndItsLateChunkIsDeleted() {
        InMemoryCloudStore c0 = new InMemoryCloudStore("c0");
        SlowCloudStore slow = SlowCloudStore.ofPuts(c0, Duration.ofSeconds(30));
        List<CloudStore> clouds = List.of(slow, new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"),
                new InMemoryCloudStore("c3"));
        Hybris h = open(shortTimers(builder(clouds)));
        byte[] v = value(6000, 19);
        long t0 = System.nanoTime();
        h.put(C, "k", v);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        assertThat(h.describe(C, "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c1", "c2", "c3");
        slow.setActive(false); // the held upload completes now, unreferenced: it must be deleted
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(objects(c0)).isEmpty());
        assertThat(h.get(C, "k")).hasValue(v);
    }

    @Test
    void oneCloudDownAndOneSlowAtPutTimeAreBothReplaced() {
        InMemoryCloudStore slowStore = new InMemoryCloudStore("c1");
        SlowCloudStore slow = SlowCloudStore.ofPuts(slowStore, Duration.ofSeconds(30));
        List<CloudStore> clouds = List.of(UnavailableCloudStore.of(new InMemoryCloudStore("c0")), slow,
                new InMemoryCloudStore("c2"), new InMemoryCloudStore("c3"), new InMemoryCloudStore("c4"));
        Hybris h = open(shortTimers(builder(clouds)));
        byte[] v = value(12_345, 21);
        h.put(C, "k", v);
        List<String> holders = h.describe(C, "k").orElseThrow().clouds();
        assertThat(holders).hasSize(3).doesNotContain("c0", "c1");
        slow.setActive(false);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(objects(slowStore)).isEmpty());
        assertThat(h.get(C, "k")).hasValue(v);
    }

    @Test
    void withExactlyKPlusFCloudsAPutFailsWhileOneIsDownAndLeavesNoChunks() {
        InMemoryCloudStore c1 = new InMemoryCloudStore("c1");
        InMemoryCloudStore c2 = new InMemoryCloudStore("c2");
        List<CloudStore> clouds = List.of(UnavailableCloudStore.of(new InMemoryCloudStore("c0")), c1, c2);
        Hybris h = open(builder(clouds));
        assertThatThrownBy(() -> h.put(C, "k", value(3000, 20))).isInstanceOf(NotEnoughCloudsException.class)
                .hasMessageContaining("needs its 3 chunks (k=2, f=1) on 3 different clouds");
        assertThat(h.get(C, "k")).isEmpty();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(objects(c1)).isEmpty();
            assertThat(objects(c2)).isEmpty();
        });
    }

    @Test
    void theWorstCaseGetWaitsForChunksToComeBack() throws Exception {
        UnavailableCloudStore c0 = UnavailableCloudStore.of(new InMemoryCloudStore("c0"));
        UnavailableCloudStore c1 = UnavailableCloudStore.of(new InMemoryCloudStore("c1"));
        c0.setActive(false);
        c1.setActive(false);
        CountDownLatch worstCase = new CountDownLatch(1);
        HybrisListener listener = new HybrisListener() {
            @Override
            public void worstCaseGet(String container, String key) {
                worstCase.countDown();
            }
        };
        Hybris h = open(builder(List.of(c0, c1, new InMemoryCloudStore("c2"))).listener(listener));
        byte[] v = value(5000, 7);
        h.put(C, "k", v);
        c0.setActive(true);
        c1.setActive(true); // only one chunk left: the common case cannot decode
        var pending = h.getAsync(C, "k");
        assertThat(worstCase.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pending).isNotDone();
        c1.setActive(false);
        assertThat(pending.get(15, TimeUnit.SECONDS)).hasValue(v);
    }

    @Test
    void thresholdPolicyReplicatesBelowAndCodesAtOrAbove() {
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        Hybris h = open(builder(clouds).erasurePolicy(ErasurePolicy.THRESHOLD).erasureThreshold(1000));
        byte[] small = value(999, 8);
        byte[] large = value(1000, 9);
        h.put(C, "small", small);
        h.put(C, "large", large);
        assertThat(h.describe(C, "small").orElseThrow().clouds()).hasSize(2); // f+1 replicas
        assertThat(h.describe(C, "large").orElseThrow().clouds()).hasSize(3); // k+f chunks
        List<Long> sizes = new ArrayList<>();
        for (CloudStore c : clouds) {
            for (CloudObject o : objects(c)) {
                sizes.add(o.size());
            }
        }
        assertThat(sizes).containsExactlyInAnyOrder(999L, 999L, 500L, 500L, 500L);
        assertThat(h.get(C, "small")).hasValue(small);
        assertThat(h.get(C, "large")).hasValue(large);
    }

    @Test
    void perContainerOverridesTheClientPolicy() {
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        Hybris h = open(builder(clouds).erasurePolicy(ErasurePolicy.REPLICATION)
                .containerErasurePolicy("videos", ErasurePolicy.ERASURE)
                .containerErasurePolicy("docs", ErasurePolicy.THRESHOLD).containerErasureThreshold("docs", 10));
        byte[] v = value(100, 10);
        h.put("photos", "k", v);
        h.put("videos", "k", v);
        h.put("docs", "k", v);
        assertThat(h.describe("photos", "k").orElseThrow().clouds()).hasSize(2);
        assertThat(h.describe("videos", "k").orElseThrow().clouds()).hasSize(3);
        assertThat(h.describe("docs", "k").orElseThrow().clouds()).hasSize(3);
        for (String c : List.of("photos", "videos", "docs")) {
            assertThat(h.get(c, "k")).as(c).hasValue(v);
        }
    }

    @Test
    void propertiesConfigureThePolicyAndPerContainerOverrides() {
        HybrisConfig config = HybrisConfig.fromMap(Map.ofEntries(
                Map.entry("hybris.f", "1"),
                Map.entry("hybris.rmds.type", "memory"),
                Map.entry("hybris.cloud.a.type", "memory"),
                Map.entry("hybris.cloud.b.type", "memory"),
                Map.entry("hybris.cloud.c.type", "memory"),
                Map.entry("hybris.erasure.policy", "threshold"),
                Map.entry("hybris.erasure.k", "2"),
                Map.entry("hybris.erasure.threshold", "2KiB"),
                Map.entry("hybris.erasure.coder", "java"),
                Map.entry("hybris.container.videos.erasure.policy", "erasure"),
                Map.entry("hybris.container.logs.erasure.threshold", "64KiB")), Map.of());
        assertThat(config.erasurePolicy()).isEqualTo(ErasurePolicy.THRESHOLD);
        assertThat(config.erasureDataChunks()).isEqualTo(2);
        assertThat(config.erasureThreshold()).isEqualTo(2048);
        assertThat(config.erasureCoder()).isEqualTo("java");
        assertThat(config.erasurePolicy("videos")).isEqualTo(ErasurePolicy.ERASURE);
        assertThat(config.erasurePolicy("logs")).isEqualTo(ErasurePolicy.THRESHOLD);
        assertThat(config.erasureThreshold("logs")).isEqualTo(65536);
        assertThat(config.erasureThreshold("other")).isEqualTo(2048);
    }

    @Test
    void encryptionThenEncodingLeavesNoPlaintextInAnyChunk() {
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        Hybris h = open(builder(clouds).encryption(new MetadataKeyProvider()));
        String marker = "PLAINTEXT-MARKER-".repeat(200);
        byte[] v = marker.getBytes(StandardCharsets.US_ASCII);
        h.put(C, "secret", v);
        assertThat(h.get(C, "secret")).hasValue(v);
        byte[] needle = "PLAINTEXT-MARKER".getBytes(StandardCharsets.US_ASCII);
        int chunks = 0;
        for (CloudStore c : clouds) {
            for (CloudObject o : objects(c)) {
                byte[] stored = c.get(o.key(), Long.MAX_VALUE).orElseThrow();
                assertThat(indexOf(stored, needle)).as("%s %s", c.id(), o.key()).isEqualTo(-1);
                chunks++;
            }
        }
        assertThat(chunks).isEqualTo(3);
    }

    @Test
    void garbageCollectionRemovesTheChunksOfTheReplacedVersion() {
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        Hybris h = open(builder(clouds));
        h.put(C, "k", value(800, 11));
        List<String> first = objects(clouds.get(0)).stream().map(CloudObject::key).toList();
        byte[] v2 = value(900, 12);
        h.put(C, "k", v2);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (CloudStore c : clouds) {
                List<CloudObject> left = objects(c);
                assertThat(left).as(c.id()).hasSize(1);
                assertThat(left.get(0).size()).isEqualTo(450);
                assertThat(left.get(0).key()).isNotIn(first);
            }
        });
        h.delete(C, "k");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (CloudStore c : clouds) {
                assertThat(objects(c)).as(c.id()).isEmpty();
            }
        });
    }

    @Test
    void replicatedAndErasureCodedKeysStayReadableByBothKindsOfClient() {
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        Hybris replicating = open(builder(clouds).erasurePolicy(ErasurePolicy.REPLICATION).clientId("rep"));
        Hybris coding = open(builder(clouds).clientId("ec"));
        byte[] old = value(5000, 13);
        byte[] fresh = value(5000, 14);
        replicating.put(C, "old", old);
        coding.put(C, "fresh", fresh);
        assertThat(coding.get(C, "old")).hasValue(old);
        assertThat(replicating.get(C, "fresh")).hasValue(fresh);
        assertThat(replicating.describe(C, "old").orElseThrow().clouds()).hasSize(2);
        assertThat(replicating.describe(C, "fresh").orElseThrow().clouds()).hasSize(3);
        // a replicated key overwritten with erasure coding
        coding.put(C, "old", fresh);
        assertThat(replicating.get(C, "old")).hasValue(fresh);
    }

    @Test
    void transactionalPutsAreErasureCodedToo() {
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        Hybris h = open(builder(clouds));
        byte[] a = value(700, 15);
        byte[] b = value(70, 16);
        h.tput(C, Map.of("a", a, "b", b));
        assertThat(h.describe(C, "a").orElseThrow().clouds()).hasSize(3);
        assertThat(h.get(C, "a")).hasValue(a);
        assertThat(h.get(C, "b")).hasValue(b);
    }

    @Test
    void emptyValuesRoundTrip() {
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        Hybris h = open(builder(clouds));
        h.put(C, "empty", new byte[0]);
        assertThat(h.get(C, "empty")).hasValue(new byte[0]);
        h.put(C, "one", new byte[] {42});
        assertThat(h.get(C, "one")).hasValue(new byte[] {42});
    }

    @Test
    void chunksWrittenByOneCoderAreDecodedByTheOther() {
        Coders.requireNative();
        List<UnavailableCloudStore> clouds = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            UnavailableCloudStore c = UnavailableCloudStore.of(new InMemoryCloudStore("c" + i));
            c.setActive(false);
            clouds.add(c);
        }
        Hybris javaClient = open(builder(clouds).erasureCoder("java").clientId("java"));
        Hybris nativeClient = open(builder(clouds).erasureCoder("native").clientId("native"));
        byte[] a = value(100_003, 17);
        byte[] b = value(77_777, 18);
        javaClient.put(C, "a", a);
        nativeClient.put(C, "b", b);
        for (String key : List.of("a", "b")) {
            // lose the cloud holding data chunk 0, so decoding needs the parity chunk
            String first = javaClient.describe(C, key).orElseThrow().clouds().get(0);
            UnavailableCloudStore down = clouds.stream().filter(c -> c.id().equals(first)).findFirst().orElseThrow();
            down.setActive(true);
            assertThat(nativeClient.get(C, key)).as("native reads %s", key).hasValue(key.equals("a") ? a : b);
            assertThat(javaClient.get(C, key)).as("java reads %s", key).hasValue(key.equals("a") ? a : b);
            down.setActive(false);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
