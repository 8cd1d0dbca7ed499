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
import io.hybris.spi.TransientCloudException;
import io.hybris.testkit.ForwardingCloudStore;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cloud that fails to answer while a scrub checks or repairs (docs/scrub.md): its copies are <em>unchecked</em>,
 * never reported missing, corrupt or the key unrecoverable, nothing is rewritten over them, the run is not complete
 * and their range is not recorded as verified. Before, a failed confirming LIST counted the copy missing (and repair
 * rewrote it); a failed GET of a repair's source counted it corrupt and made the key unrecoverable, and in a
 * migration wrote the copy back onto the cloud being retired.
 */
class ScrubUnansweredCloudTest {
    private static final String PREFIX = "hybris/";
    private static final int CHUNK = 64 << 10;
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final Map<String, InMemoryCloudStore> raw = new LinkedHashMap<>();
    private final Map<String, Faulty> faulty = new LinkedHashMap<>();
    private final List<Hybris> clients = new ArrayList<>();

    @TempDir
    Path dir;

    /** A cloud whose GETs or exact-name LISTs can fail, whose bulk listing can lag; it counts the PUTs. */
    static final class Faulty extends ForwardingCloudStore {
        volatile boolean failGets;
        volatile boolean failNameLists;
        volatile boolean lagging;
        final AtomicInteger puts = new AtomicInteger();

        Faulty(InMemoryCloudStore cloud) {
            super(cloud);
        }

        @Override
        public void put(String objectKey, byte[] value) {
            puts.incrementAndGet();
            super.put(objectKey, value);
        }

        @Override
        public java.util.Optional<byte[]> get(String objectKey, long maxBytes) {
            if (failGets) {
                throw new TransientCloudException(id(), "injected: GET failed");
            }
            return super.get(objectKey, maxBytes);
        }

        @Override
        public List<CloudObject> list(String prefix) {
            boolean bulk = prefix.endsWith("/");
            if (!bulk && failNameLists) {
                throw new TransientCloudException(id(), "injected: LIST failed");
            }
            return bulk && lagging ? List.of() : super.list(prefix);
        }
    }

    ScrubUnansweredCloudTest() {
        for (String id : List.of("c0", "c1", "c2", "c3")) {
            InMemoryCloudStore cloud = new InMemoryCloudStore(id);
            raw.put(id, cloud);
            faulty.put(id, new Faulty(cloud));
        }
    }

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    private Hybris client() {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(20))
                .chunkThreshold(CHUNK).chunkSize(CHUNK).containerErasurePolicy("coded", ErasurePolicy.ERASURE)
                .probeInterval(Duration.ZERO);
        faulty.values().forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    /** Deletes every object of {@code container} on {@code cloud}. */
    private void wipe(String cloud, String container) {
        raw.get(cloud).list(PREFIX + container + "/").forEach(o -> raw.get(cloud).delete(o.key()));
    }

    private int puts() {
        return faulty.values().stream().mapToInt(f -> f.puts.get()).sum();
    }

    /** Records every key reported. */
    private static final class Collector implements ScrubListener {
        final Map<String, KeyHealth> keys = new ConcurrentHashMap<>();

        @Override
        public void key(KeyHealth health) {
            keys.put(health.container() + "/" + health.key(), health);
        }
    }

    @Test
    void aCopyWhoseConfirmingListFailsIsUncheckedNotMissingAndNotRewritten() {
        Hybris h = client();
        h.put("plain", "k", bytes(700));
        List<String> clouds = h.describe("plain", "k").orElseThrow().clouds();
        Faulty lagging = faulty.get(clouds.get(0)); // its bulk listing has not caught up, its LIST then fails
        lagging.lagging = true;
        lagging.failNameLists = true;
        int putsBefore = puts();

        Collector seen = new Collector();
        ScrubReport r = h.scrub(ScrubOptions.listing().repair(true).listener(seen));

        KeyHealth k = seen.keys.get("plain/k");
        assertThat(k.missingOn()).as(k.toString()).isEmpty();
        assertThat(k.uncheckedOn()).containsExactly(clouds.get(0));
        assertThat(k.repairedOn()).isEmpty();
        assertThat(r.copiesMissing()).isZero();
        assertThat(r.copiesRepaired()).isZero();
        assertThat(puts() - putsBefore).as("nothing rewritten over a copy that may be fine").isZero();
        assertThat(r.complete()).as("a copy could not be checked").isFalse();
    }

    @Test
    void aRepairWhoseSourceFailsToAnswerLeavesTheKeyDegradedNotCorruptNorUnrecoverable() {
        Hybris h = client();
        h.put("plain", "k", bytes(900));
        List<String> clouds = h.describe("plain", "k").orElseThrow().clouds();
        wipe(clouds.get(1), "plain"); // one copy really lost
        faulty.get(clouds.get(0)).failGets = true; // the other one fine, its cloud failing GETs for a while

        Collector seen = new Collector();
        ScrubReport r = h.scrub(ScrubOptions.listing().repair(true).listener(seen));

        KeyHealth k = seen.keys.get("plain/k");
        assertThat(k.status()).as(k.toString()).isEqualTo(KeyHealth.Status.DEGRADED);
        assertThat(k.missingOn()).containsExactly(clouds.get(1));
        assertThat(k.corruptOn()).isEmpty();
        assertThat(k.uncheckedOn()).containsExactly(clouds.get(0));
        assertThat(r.unrecoverable()).isZero();
        assertThat(r.copiesCorrupt()).isZero();

        faulty.get(clouds.get(0)).failGets = false; // the next run repairs it
        assertThat(h.scrub(ScrubOptions.listing().repair(true)).repaired()).isEqualTo(1);
        assertThat(h.scrub(ScrubOptions.listing()).healthy()).isEqualTo(1);
    }

    @Test
    void anErasureCodedKeyWithFragmentsUnansweredIsDegradedAndWithTooFewLeftIsUnrecoverableWithNothingWritten() {
        Hybris h = client();
        h.put("coded", "k", bytes(3000));
        List<String> clouds = h.describe("coded", "k").orElseThrow().clouds();
        assertThat(clouds).hasSize(3);
        wipe(clouds.get(2), "coded");
        faulty.get(clouds.get(0)).failGets = true;
        int putsBefore = puts();

        Collector seen = new Collector();
        ScrubReport r = h.scrub(ScrubOptions.listing().repair(true).listener(seen));
        KeyHealth k = seen.keys.get("coded/k");
        assertThat(k.status()).as(k.toString()).isEqualTo(KeyHealth.Status.DEGRADED);
        assertThat(k.missingOn()).containsExactly(clouds.get(2));
        assertThat(k.corruptOn()).isEmpty();
        assertThat(k.uncheckedOn()).containsExactly(clouds.get(0));
        assertThat(r.unrecoverable()).isZero();
        assertThat(puts() - putsBefore).isZero();

        faulty.get(clouds.get(0)).failGets = false;
        wipe(clouds.get(1), "coded"); // now two of three fragments are gone: fewer than k=2 left
        Collector lost = new Collector();
        ScrubReport gone = h.scrub(ScrubOptions.listing().repair(true).listener(lost));
        assertThat(lost.keys.get("coded/k").status()).isEqualTo(KeyHealth.Status.UNRECOVERABLE);
        assertThat(gone.unrecoverable()).isEqualTo(1);
        assertThat(puts() - putsBefore).as("nothing written for an unrecoverable key").isZero();
    }

    @Test
    void aChunkedValueWhoseManifestCannotBeReadIsUncheckedNotUnrecoverable() {
        Hybris h = client();
        byte[] value = bytes(2 * CHUNK + 100);
        h.put("big", "k", new ByteArrayInputStream(value), value.length);
        h.describe("big", "k").orElseThrow().clouds().forEach(c -> faulty.get(c).failGets = true);

        Collector seen = new Collector();
        ScrubReport r = h.scrub(ScrubOptions.listing().repair(true).listener(seen));
        KeyHealth k = seen.keys.get("big/k");
        assertThat(k.status()).as(k.toString()).isNotEqualTo(KeyHealth.Status.UNRECOVERABLE);
        assertThat(k.missingOn()).isEmpty();
        assertThat(k.corruptOn()).isEmpty();
        assertThat(k.uncheckedOn()).isNotEmpty();
        assertThat(r.unrecoverable()).isZero();
        assertThat(r.complete()).isFalse();
    }

    @Test
    void aDeepScrubThatCouldNotReadACopyDoesNotRecordItsRangeVerified() {
        Hybris h = client();
        h.put("plain", "k", bytes(800));
        List<String> clouds = h.describe("plain", "k").orElseThrow().clouds();
        wipe(clouds.get(1), "plain"); // lost, while its cloud fails every GET
        faulty.get(clouds.get(1)).failGets = true;
        Path state = dir.resolve("scrub.state");

        ScrubReport deep = h.scrub(ScrubOptions.listing().deep(true).stateFile(state));
        assertThat(deep.complete()).as("a copy could not be read").isFalse();
        faulty.get(clouds.get(1)).failGets = false;
        ScrubReport next = h.scrub(ScrubOptions.listing().stateFile(state));
        assertThat(next.keysSkipped()).as("its range was never verified").isZero();
        assertThat(next.copiesMissing()).isEqualTo(1);
    }

    @Test
    void aMigrationOffACloudFailingItsGetsMovesEveryCopyAndWritesNothingToIt() {
        Hybris h = client();
        for (int i = 0; i < 20; i++) {
            h.put("plain", "k" + i, bytes(600 + i));
            h.put("coded", "k" + i, bytes(1600 + i));
        }
        String from = "c0";
        faulty.get(from).failGets = true; // a cloud being retired answers its listing, not its GETs
        int putsBefore = faulty.get(from).puts.get();

        ScrubReport moved = h.migrate(from, "c1", ScrubOptions.listing());

        assertThat(faulty.get(from).puts.get() - putsBefore).as("nothing written to the cloud moved off").isZero();
        for (String container : List.of("plain", "coded")) {
            for (int i = 0; i < 20; i++) {
                assertThat(h.describe(container, "k" + i).orElseThrow().clouds()).as(container + "/k" + i)
                        .doesNotContain(from);
            }
        }
        assertThat(moved.unrecoverable()).isZero();
        assertThat(moved.copiesCorrupt()).isZero();
    }
}
