/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.VersionName;
import io.hybris.testkit.RecordingCloudStore;
import io.hybris.testkit.UnavailableCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scrub and repair (docs/scrub.md) over in-memory clouds: replicated, erasure-coded (k=2) and chunked values (64 KiB
 * chunks), f=1. Each test asserts what the scrub reported per key and copy, what it rebuilt and where, and that every
 * value still reads back right with another cloud down.
 */
class ScrubRepairTest {
    private static final String PREFIX = "hybris/";
    private static final int CHUNK = 64 << 10;
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final Map<String, InMemoryCloudStore> raw = new LinkedHashMap<>();
    private final Map<String, UnavailableCloudStore> down = new LinkedHashMap<>();
    private final List<Hybris> clients = new ArrayList<>();
    /** container -> key -> value. */
    private final Map<String, Map<String, byte[]>> written = new LinkedHashMap<>();

    @TempDir
    Path dir;

    ScrubRepairTest() {
        for (String id : List.of("c0", "c1", "c2", "c3")) {
            InMemoryCloudStore cloud = new InMemoryCloudStore(id);
            raw.put(id, cloud);
            UnavailableCloudStore d = UnavailableCloudStore.of(cloud);
            d.setActive(false);
            down.put(id, d);
        }
    }

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    private Hybris client(List<String> cloudIds, List<? extends CloudStore> wrapped) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(20))
                .timerMin(Duration.ofMillis(200)).chunkThreshold(CHUNK).chunkSize(CHUNK)
                .containerErasurePolicy("coded", ErasurePolicy.ERASURE).probeInterval(Duration.ZERO);
        if (wrapped != null) {
            wrapped.forEach(b::cloud);
        } else {
            cloudIds.forEach(id -> b.cloud(down.get(id)));
        }
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    private Hybris client(String... cloudIds) {
        return client(List.of(cloudIds), null);
    }

    /** {@code plain} small replicated values, {@code coded} erasure-coded ones, {@code big} chunked ones. */
    private void write(Hybris h, int plain, int coded, int big) {
        Random random = new Random(5);
        for (int i = 0; i < plain + coded + big; i++) {
            String container = i < plain ? "plain" : i < plain + coded ? "coded" : "big";
            byte[] value = new byte[container.equals("big") ? 2 * CHUNK + 1000 + i : 500 + random.nextInt(2000)];
            random.nextBytes(value);
            String key = "k" + i;
            if (container.equals("big")) {
                h.put(container, key, new ByteArrayInputStream(value), value.length);
            } else {
                h.put(container, key, value);
            }
            written.computeIfAbsent(container, c -> new LinkedHashMap<>()).put(key, value);
        }
    }

    private void assertEverythingReads(Hybris h) {
        written.forEach((container, values) -> values.forEach((key, value) ->
                assertThat(h.get(container, key)).as(container + "/" + key).hasValueSatisfying(v ->
                        assertThat(v).isEqualTo(value))));
    }

    /** The Hybris objects on a cloud, by name. */
    private Set<String> objectsOn(String cloud) {
        return raw.get(cloud).list(PREFIX).stream().map(CloudObject::key).collect(Collectors.toCollection(TreeSet::new));
    }

    /** container/key of an object name (a version or a chunk of one). */
    private static String keyOf(String name) {
        return VersionName.parse(PREFIX, name).or(() -> VersionName.parseChunk(PREFIX, name).map(VersionName.Chunk::version))
                .map(v -> v.container() + "/" + v.key()).orElseThrow();
    }

    /** Collects the keys reported that are not healthy. */
    private static final class Collector implements ScrubListener {
        final Map<String, KeyHealth> keys = new ConcurrentHashMap<>();

        @Override
        public void key(KeyHealth health) {
            if (health.status() != KeyHealth.Status.HEALTHY) {
                keys.put(health.container() + "/" + health.key(), health);
            }
        }
    }

    @Test
    void aWipedCloudIsFoundByListingAndRepairedThenASecondCloudCanFail() {
        Hybris h = client("c0", "c1", "c2");
        write(h, 900, 800, 300); // 2,000 keys
        Set<String> wiped = objectsOn("c1");
        Set<String> keysOnC1 = wiped.stream().map(ScrubRepairTest::keyOf).collect(Collectors.toSet());
        assertThat(keysOnC1).hasSizeGreaterThan(1000);
        wiped.forEach(name -> raw.get("c1").delete(name));

        Collector found = new Collector();
        ScrubReport listing = h.scrub(ScrubOptions.listing().listener(found));
        assertThat(listing.keysChecked()).isEqualTo(2000);
        assertThat(listing.copiesMissing()).as("exactly the copies that were on c1").isEqualTo(wiped.size());
        assertThat(listing.copiesCorrupt()).isZero();
        assertThat(listing.degraded()).isEqualTo(keysOnC1.size());
        assertThat(listing.unrecoverable()).isZero();
        assertThat(found.keys.keySet()).isEqualTo(keysOnC1);
        assertThat(found.keys.values()).allSatisfy(k -> {
            assertThat(k.status()).isEqualTo(KeyHealth.Status.DEGRADED);
            assertThat(k.missingOn()).containsExactly("c1");
        });
        assertThat(objectsOn("c1")).as("a scrub without repair writes nothing").isEmpty();

        Collector fixed = new Collector();
        ScrubReport repair = h.scrub(ScrubOptions.listing().repair(true).listener(fixed));
        assertThat(repair.repaired()).isEqualTo(keysOnC1.size());
        assertThat(repair.copiesRepaired()).isEqualTo(wiped.size());
        assertThat(fixed.keys.values()).allSatisfy(k -> assertThat(k.repairedOn()).contains("c1"));
        assertThat(objectsOn("c1")).as("every copy back where it was").isEqualTo(wiped);
        ScrubReport after = h.scrub(ScrubOptions.listing());
        assertThat(after.healthy()).isEqualTo(2000);
        assertThat(after.copiesMissing()).isZero();

        down.get("c2").setActive(true); // f+1 copies again: any one more cloud may fail
        assertEverythingReads(h);
    }

    @Test
    void deepScrubFindsCopiesCorruptedInPlaceAndAListingScrubDoesNotClaimTo() {
        Hybris h = client("c0", "c1", "c2");
        write(h, 40, 40, 20);
        Set<String> flipped = objectsOn("c0");
        for (String name : flipped) { // one bit flipped in place: the size stays right
            byte[] bytes = raw.get("c0").get(name, Long.MAX_VALUE).orElseThrow();
            bytes[bytes.length / 2] ^= 0x10;
            raw.get("c0").put(name, bytes);
        }
        // a listing scrub sees no corruption, except in the chunk manifests it downloads to learn the chunks
        Collector listed = new Collector();
        ScrubReport listing = h.scrub(ScrubOptions.listing().listener(listed));
        assertThat(listing.copiesMissing()).isZero();
        assertThat(listed.keys.keySet()).allSatisfy(k -> assertThat(k).startsWith("big/"));
        assertThat(listing.healthy()).isGreaterThanOrEqualTo(80);
        assertThat(listing.copiesRepaired()).isZero();

        Collector found = new Collector();
        ScrubReport deep = h.scrub(ScrubOptions.listing().deep(true).repair(true).listener(found));
        assertThat(deep.copiesCorrupt()).isEqualTo(flipped.size());
        assertThat(deep.copiesRepaired()).isEqualTo(flipped.size());
        assertThat(found.keys.values()).allSatisfy(k -> {
            assertThat(k.status()).isEqualTo(KeyHealth.Status.REPAIRED);
            assertThat(k.corruptOn()).containsExactly("c0");
            assertThat(k.repairedOn()).containsOnly("c0");
        });
        ScrubReport again = h.scrub(ScrubOptions.listing().deep(true));
        assertThat(again.healthy()).isEqualTo(100);
        assertThat(again.copiesCorrupt()).isZero();
        down.get("c1").setActive(true);
        assertEverythingReads(h);
    }

    @Test
    void aCloudThatRefusesItsCopyBackIsReplacedByAnotherAndTheMetadataRecordsIt() {
        boolean[] refuse = {false};
        CloudStore c1 = new io.hybris.testkit.ForwardingCloudStore(raw.get("c1")) {
            @Override
            public void put(String objectKey, byte[] value) {
                if (refuse[0]) {
                    throw new io.hybris.spi.TransientCloudException("c1", "injected: c1 refuses writes");
                }
                super.put(objectKey, value);
            }
        };
        Hybris h = client(List.of(), List.of(down.get("c0"), c1, down.get("c2"), down.get("c3")));
        write(h, 40, 30, 0);
        Set<String> onC1 = objectsOn("c1");
        Set<String> keysOnC1 = onC1.stream().map(ScrubRepairTest::keyOf).collect(Collectors.toSet());
        onC1.forEach(name -> raw.get("c1").delete(name));
        refuse[0] = true;

        Collector fixed = new Collector();
        ScrubReport repair = h.scrub(ScrubOptions.listing().repair(true).listener(fixed));
        assertThat(repair.copiesMissing()).isEqualTo(onC1.size());
        assertThat(repair.repaired()).isEqualTo(keysOnC1.size());
        assertThat(fixed.keys.values()).allSatisfy(k -> {
            assertThat(k.missingOn()).containsExactly("c1");
            assertThat(k.repairedOn()).hasSize(1).doesNotContain("c1");
        });
        // the new placement is in metadata: no version lists c1, every one has its f+1 copies (k+f fragments)
        written.forEach((container, values) -> values.keySet().forEach(key -> {
            var clouds = h.describe(container, key).orElseThrow().clouds();
            assertThat(clouds).doesNotContain("c1").doesNotHaveDuplicates()
                    .hasSize(container.equals("coded") ? 3 : 2);
        }));
        assertThat(h.scrub(ScrubOptions.listing()).healthy()).isEqualTo(70);
        down.get("c0").setActive(true);
        assertEverythingReads(h);
    }

    @Test
    void migrateMovesEveryCopyOffACloudThatThenLeavesTheConfiguration() {
        Hybris h = client("c0", "c1", "c2", "c3");
        write(h, 60, 60, 20);
        assertThat(objectsOn("c1")).isNotEmpty();
        ScrubReport moved = h.migrate("c1", "c3", ScrubOptions.listing());
        assertThat(moved.unrecoverable()).isZero();
        assertThat(moved.degraded()).isZero();
        assertThat(moved.repaired()).isPositive();
        // nothing references c1 any more: a client without it reads everything, every key on f+1 clouds
        Hybris without = client("c0", "c2", "c3");
        written.forEach((container, values) -> values.keySet().forEach(key ->
                assertThat(without.describe(container, key).orElseThrow().clouds()).doesNotContain("c1")));
        ScrubReport check = without.scrub(ScrubOptions.listing());
        assertThat(check.healthy()).isEqualTo(140);
        down.get("c0").setActive(true); // and one more cloud may fail
        assertEverythingReads(without);
    }

    @Test
    void theBackgroundScrubRepairsOnItsOwnWhenConfigured() {
        Hybris writer = client("c0", "c1", "c2");
        write(writer, 20, 20, 0);
        Set<String> onC1 = objectsOn("c1");
        onC1.forEach(name -> raw.get("c1").delete(name));
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).scrubInterval(Duration.ofMillis(100))
                .containerErasurePolicy("coded", ErasurePolicy.ERASURE).probeInterval(Duration.ZERO);
        List.of("c0", "c1", "c2").forEach(id -> b.cloud(down.get(id)));
        clients.add(Hybris.open(b.build()));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> objectsOn("c1").equals(onC1));
    }

    @Test
    void rateLimitsPaceTheRequests() {
        Hybris h = client("c0", "c1", "c2");
        write(h, 20, 0, 0);
        long t0 = System.nanoTime();
        ScrubReport r = h.scrub(ScrubOptions.listing().deep(true).requestsPerSecond(50));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.healthy()).isEqualTo(20);
        // 3 listings and 40 GETs at 50 requests per second take at least (43 - 1) / 50 s
        assertThat(seconds).isGreaterThanOrEqualTo(42 / 50.0);
        long t1 = System.nanoTime();
        h.scrub(ScrubOptions.listing().deep(true).bytesPerSecond(20_000));
        double bytesSeconds = (System.nanoTime() - t1) / 1e9;
        long bytes = written.get("plain").values().stream().mapToLong(v -> v.length).sum() * 2;
        assertThat(bytesSeconds).isGreaterThanOrEqualTo((bytes - 2500) / 20_000.0);
    }

    @Test
    void aListingScrubOfTenThousandKeysIssuesAtMostTenListRequestsPerCloudAndNoGet() {
        List<RecordingCloudStore> recorded = List.of("c0", "c1", "c2").stream()
                .map(id -> RecordingCloudStore.of(raw.get(id))).toList();
        Hybris h = client(List.of(), recorded);
        byte[] value = new byte[100];
        for (int i = 0; i < 10_000; i++) {
            h.put("many", String.format("k%05d", i), value);
        }
        recorded.forEach(RecordingCloudStore::reset);
        var before = h.cloudUsage();
        ScrubReport report = h.scrub(ScrubOptions.listing().containers("many"));
        assertThat(report.healthy()).isEqualTo(10_000);
        var after = h.cloudUsage();
        for (RecordingCloudStore r : recorded) {
            assertThat(r.count(RecordingCloudStore.Op.GET)).as(r.id() + " GETs").isZero();
            assertThat(r.count(RecordingCloudStore.Op.LIST)).as(r.id() + " listings").isEqualTo(1);
            long requests = after.get(r.id()).putListRequests() - before.get(r.id()).putListRequests();
            assertThat(requests).as(r.id() + " LIST requests (pages of 1,000)").isLessThanOrEqualTo(10);
            assertThat(after.get(r.id()).getHeadRequests()).isEqualTo(before.get(r.id()).getHeadRequests());
        }
    }

    @Test
    void aResumedScrubStartsAfterTheLastCompletedPageAndDigestsSkipRangesAWholeRunVerified() {
        Hybris h = client("c0", "c1", "c2");
        write(h, 2500, 0, 0);
        Path state = dir.resolve("scrub.state");
        RuntimeException stop = new RuntimeException("stop after the first page");
        int[] pages = {0};
        try {
            h.scrub(ScrubOptions.listing().stateFile(state).listener(new ScrubListener() {
                @Override
                public void progress(String container, ScrubReport report) {
                    if (++pages[0] == 1) {
                        throw stop;
                    }
                }
            }));
        } catch (RuntimeException e) {
            assertThat(e).hasRootCauseMessage("stop after the first page");
        }
        int[] checked = {0};
        ScrubReport resumed = h.scrub(ScrubOptions.listing().stateFile(state).listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                checked[0]++;
            }
        }));
        assertThat(checked[0]).as("the first page of 1,000 is not checked again").isEqualTo(1500);
        assertThat(resumed.keysChecked()).as("the report counts the stopped run's keys too").isEqualTo(2500);
        assertThat(resumed.complete()).isTrue();
        ScrubReport whole = h.scrub(ScrubOptions.listing().stateFile(state));
        assertThat(whole.keysChecked()).as("a resumed scrub verifies no range: the next one checks every key")
                .isEqualTo(2500);
        ScrubReport next = h.scrub(ScrubOptions.listing().stateFile(state));
        assertThat(next.keysSkipped()).as("every range verified last time and unchanged since").isEqualTo(2500);
        assertThat(next.keysChecked()).isZero();
        List<CloudObject> onC0 = raw.get("c0").list(PREFIX + "plain/");
        assertThat(onC0).hasSizeGreaterThan(3);
        onC0.stream().limit(3).forEach(o -> raw.get("c0").delete(o.key()));
        ScrubReport changed = h.scrub(ScrubOptions.listing().stateFile(state));
        assertThat(changed.copiesMissing()).isEqualTo(3);
        assertThat(changed.keysChecked()).as("only the ranges whose listing changed").isBetween(3L, 30L);
    }
}
