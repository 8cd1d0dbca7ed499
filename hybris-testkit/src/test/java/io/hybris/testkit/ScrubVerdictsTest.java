/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a scrub finds and does with one replicated key ({@code f=1}, copies on {@code c0} and {@code c1} of four
 * clouds): a copy of the wrong size or with the wrong bytes is corrupt, a scrub without repair writes nothing, a
 * migration onto a cloud the placement lists puts the moved copy on another cloud, and a run that could not
 * list a cloud leaves no checkpoint that makes the next run skip the keys.
 */
class ScrubVerdictsTest {
    private static final int CHUNK = 64 << 10;
    private static final byte[] VALUE = "the value the scrub checks".getBytes();
    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(4);
    private final AtomicBoolean c0Writes = new AtomicBoolean(true);
    private final AtomicBoolean c2Lists = new AtomicBoolean(true);
    /** Once set, c1 stores a copy only after c0 stored one (the placement then lists c0 first). */
    private final AtomicBoolean c1AfterC0 = new AtomicBoolean();
    private final java.util.concurrent.CountDownLatch c0Stored = new java.util.concurrent.CountDownLatch(1);
    private final OpenedClients opened = new OpenedClients();
    private final Map<String, KeyHealth> seen = new ConcurrentHashMap<>();
    private Hybris h;

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        opened.close();
    }

    /** A client of {@link #open()}, "k" written to c0 and c1. */
    private void writeK() {
        open();
        h.put("c", "k", VALUE);
        assertThat(h.describe("c", "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c0", "c1");
    }

    /** A client over c0 (refusing writes while {@link #c0Writes} is false), c1, c2 (see {@link #c2Lists}), c3. */
    private void open() {
        CloudStore c0 = new ForwardingCloudStore(raw.get(0)) {
            @Override
            public void put(String objectKey, byte[] value) {
                if (!c0Writes.get()) {
                    throw new TransientCloudException(id(), "injected: refuses writes");
                }
                super.put(objectKey, value);
                c0Stored.countDown();
            }
        };
        CloudStore c1 = new ForwardingCloudStore(raw.get(1)) {
            @Override
            public void put(String objectKey, byte[] value) {
                try {
                    if (c1AfterC0.get()) {
                        assertThat(c0Stored.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                super.put(objectKey, value);
            }
        };
        CloudStore c2 = new ForwardingCloudStore(raw.get(2)) {
            @Override
            public List<CloudObject> list(String prefix) {
                if (!c2Lists.get()) {
                    throw new TransientCloudException(id(), "injected: listing fails");
                }
                return super.list(prefix);
            }
        };
        h = opened.open(OpenedClients.config(store, List.of(c0, c1, c2, raw.get(3))).deadline(Duration.ofSeconds(3))
                .chunkThreshold(CHUNK).chunkSize(CHUNK));
    }

    /**
     * A copy moved off a cloud that refuses it goes to a cloud that can tell it holds no leftover of the version: not
     * to one whose listing fails (a sweep may be deleting a leftover there, and would take the moved copy).
     */
    @Test
    void aRepairMovesACopyToACloudThatCanBeListedNotToOneThatCannotTellItsLeftovers() {
        writeK();
        String name = nameOn(0);
        raw.get(0).delete(name);
        c0Writes.set(false);
        c2Lists.set(false);

        h.scrub(heard(ScrubOptions.listing().repair(true)));

        assertThat(seen.get("k").status()).isEqualTo(KeyHealth.Status.REPAIRED);
        assertThat(seen.get("k").repairedOn()).containsExactly("c3");
        assertThat(h.describe("c", "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c3", "c1");
        assertThat(raw.get(2).list("hybris/")).isEmpty();
        assertThat(raw.get(3).get(name, 1 << 20)).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
    }

    private String nameOn(int cloud) {
        List<CloudObject> objects = raw.get(cloud).list("hybris/");
        assertThat(objects).hasSize(1);
        return objects.get(0).key();
    }

    private ScrubOptions heard(ScrubOptions o) {
        return o.listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                seen.put(health.key(), health);
            }
        });
    }

    @Test
    void aListingScrubFindsACopyOfTheWrongSizeCorruptAndRepairsIt() {
        writeK();
        String name = nameOn(0);
        raw.get(0).put(name, "short".getBytes());

        ScrubReport r = h.scrub(heard(ScrubOptions.listing().repair(true)));

        assertThat(r.copiesCorrupt()).isEqualTo(1);
        assertThat(r.repaired()).isEqualTo(1);
        assertThat(seen.get("k").status()).isEqualTo(KeyHealth.Status.REPAIRED);
        assertThat(seen.get("k").corruptOn()).containsExactly("c0");
        assertThat(raw.get(0).get(name, 1 << 20)).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
    }

    @Test
    void aDeepScrubFindsACopyOfTheRightSizeWithOtherBytesCorruptAndRepairsIt() {
        writeK();
        String name = nameOn(0);
        byte[] flipped = VALUE.clone();
        flipped[3] ^= 1;
        raw.get(0).put(name, flipped);

        ScrubReport r = h.scrub(heard(ScrubOptions.listing().deep(true).repair(true)));

        assertThat(r.copiesCorrupt()).isEqualTo(1);
        assertThat(r.repaired()).isEqualTo(1);
        assertThat(seen.get("k").corruptOn()).containsExactly("c0");
        assertThat(raw.get(0).get(name, 1 << 20)).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
    }

    @Test
    void aScrubWithoutRepairReportsTheMissingCopyAndWritesNothing() {
        writeK();
        String name = nameOn(0);
        raw.get(0).delete(name);

        ScrubReport r = h.scrub(heard(ScrubOptions.listing()));

        assertThat(r.degraded()).isEqualTo(1);
        assertThat(r.copiesRepaired()).isZero();
        assertThat(r.bytesWritten()).isZero();
        assertThat(seen.get("k").missingOn()).containsExactly("c0");
        assertThat(raw.get(0).list("hybris/")).isEmpty();
        assertThat(raw.get(2).list("hybris/")).isEmpty();
    }

    /**
     * A migration from c0 to c1, which the placement lists but whose copy is lost: c1 gets its own copy back, and the
     * copy moved off c0 goes to another cloud, not to c1 as well (two entries, one cloud: f+1 copies on f clouds).
     */
    @Test
    void aMigrationOntoACloudThePlacementListsMovesTheCopyToAnotherCloud() {
        c1AfterC0.set(true);
        writeK();
        assertThat(h.describe("c", "k").orElseThrow().clouds()).containsExactly("c0", "c1");
        String name = nameOn(0);
        raw.get(1).delete(name);

        ScrubReport r = h.migrate("c0", "c1", ScrubOptions.listing());

        assertThat(r.complete()).isTrue();
        assertThat(h.describe("c", "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c1", "c2");
        assertThat(raw.get(1).get(name, 1 << 20)).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        assertThat(raw.get(2).get(name, 1 << 20)).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        assertThat(h.get("c", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
    }

    /**
     * A copy on c2 checked by neither run: the first could not list c2, so the container is not done and the next
     * run with the state file checks the key again from the container's start, and finds the copy missing.
     */
    @Test
    void aRunThatCouldNotListACloudLeavesTheNextRunWithTheStateFileToCheckEveryKey() {
        open();
        c0Writes.set(false);
        h.put("c", "k", VALUE);
        c0Writes.set(true);
        assertThat(h.describe("c", "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c1", "c2");
        raw.get(2).delete(raw.get(2).list("hybris/").get(0).key());
        Path state = dir.resolve("scrub.state");
        c2Lists.set(false);

        ScrubReport first = h.scrub(ScrubOptions.listing().stateFile(state));

        assertThat(first.complete()).isFalse();
        assertThat(first.degraded()).isZero();
        c2Lists.set(true);
        ScrubReport next = h.scrub(heard(ScrubOptions.listing().stateFile(state)));
        assertThat(next.complete()).isTrue();
        assertThat(next.keysChecked()).isEqualTo(1);
        assertThat(next.degraded()).isEqualTo(1);
        assertThat(seen.get("k").missingOn()).containsExactly("c2");
    }

    /** A chunked value whose manifest is corrupt on every cloud is lost: UNRECOVERABLE, not merely degraded. */
    @Test
    void aChunkedValueWhoseManifestIsCorruptOnEveryCloudIsUnrecoverable() {
        open();
        byte[] big = new byte[2 * CHUNK + 10];
        h.put("c", "big", new java.io.ByteArrayInputStream(big), big.length);
        for (int c = 0; c < 2; c++) {
            InMemoryCloudStore cloud = raw.get(c);
            String manifest = cloud.list("hybris/").stream().map(CloudObject::key).filter(n -> !n.contains("#c"))
                    .findFirst().orElseThrow();
            byte[] garbage = cloud.get(manifest, 1 << 20).orElseThrow().clone();
            garbage[0] ^= 1;
            cloud.put(manifest, garbage);
        }

        ScrubReport r = h.scrub(heard(ScrubOptions.listing()));

        assertThat(r.unrecoverable()).isEqualTo(1);
        assertThat(seen.get("big").status()).isEqualTo(KeyHealth.Status.UNRECOVERABLE);
        assertThat(seen.get("big").corruptOn()).containsExactlyInAnyOrder("c0", "c1");
    }

    /**
     * A scrub of two containers stopped in the second one's second page, resumed with its state file: the report
     * counts each key once (the second container's checkpoint counts only its own keys, not the first's too).
     */
    @Test
    void aResumedScrubOfTwoContainersCountsEachKeyOnce() {
        open();
        h.put("a", "only", VALUE);
        for (int i = 0; i < 1001; i++) { // one page of 1,000 keys, and one more
            h.put("b", String.format("k%04d", i), VALUE);
        }
        Path state = dir.resolve("scrub.state");
        RuntimeException stop = new RuntimeException("stopped after b's first page");
        ScrubListener stopping = new ScrubListener() {
            @Override
            public void progress(String container, ScrubReport report) {
                if (container.equals("b")) {
                    throw stop;
                }
            }
        };
        try {
            h.scrub(ScrubOptions.listing().containers("a", "b").stateFile(state).listener(stopping));
        } catch (RuntimeException e) {
            assertThat(e).hasRootCauseMessage("stopped after b's first page");
        }

        ScrubReport r = h.scrub(ScrubOptions.listing().containers("a", "b").stateFile(state));

        assertThat(r.complete()).isTrue();
        assertThat(r.keysChecked()).isEqualTo(1002);
        assertThat(r.healthy()).isEqualTo(1002);
    }
}
