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
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scrub and repair over a metadata store (docs/scrub.md): a wiped cloud found and repaired in place, a refusing cloud
 * replaced through the store's conditional update, and a concurrent write that wins over that update. Extend it
 * with the store's {@link #newMetadataStore()}; the clouds are in-memory. Values stored whole and chunked.
 */
public abstract class ScrubContract extends HybrisContractFixture {
    private static final int CHUNK = 64 << 10;

    /** The keys written and their values. */
    private final Map<String, byte[]> written = new LinkedHashMap<>();

    private void write(Hybris h, int small, int chunked) {
        Random random = new Random(9);
        for (int i = 0; i < small + chunked; i++) {
            byte[] v = new byte[i < small ? 100 + random.nextInt(900) : 2 * CHUNK + 100 + i];
            random.nextBytes(v);
            if (i < small) {
                h.put(C, "k" + i, v);
            } else {
                h.put(C, "k" + i, new ByteArrayInputStream(v), v.length);
            }
            written.put("k" + i, v);
        }
    }

    private Hybris client(List<? extends CloudStore> clouds) {
        return open(config(clouds).chunkSize(CHUNK).chunkThreshold(CHUNK));
    }

    private Set<String> hybrisObjectsOn(CloudStore cloud) {
        return cloud.list("").stream().map(CloudObject::key).filter(k -> k.contains("#"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private void assertEverythingReads(Hybris h) {
        written.forEach((k, v) -> assertThat(h.get(C, k)).as(k).hasValueSatisfying(got -> assertThat(got)
                .isEqualTo(v)));
    }

    /** A cloud that refuses writes while {@code refusing} is set. */
    private static CloudStore refusing(CloudStore cloud, AtomicBoolean refusing) {
        return new ForwardingCloudStore(cloud) {
            @Override
            public void put(String objectKey, byte[] value) {
                if (refusing.get()) {
                    throw new TransientCloudException(cloud.id(), "injected: refuses writes");
                }
                super.put(objectKey, value);
            }
        };
    }

    @Test
    void aWipedCloudIsFoundAndRepairedInPlace() {
        List<UnavailableCloudStore> down = raw.stream().map(UnavailableCloudStore::of).toList();
        down.forEach(d -> d.setActive(false));
        Hybris h = client(down);
        write(h, 40, 10);
        Set<String> wiped = hybrisObjectsOn(raw.get(1));
        assertThat(wiped).isNotEmpty();
        wiped.forEach(name -> raw.get(1).delete(name));

        ScrubReport found = h.scrub(ScrubOptions.listing());
        assertThat(found.copiesMissing()).isEqualTo(wiped.size());
        assertThat(found.unrecoverable()).isZero();
        ScrubReport repaired = h.scrub(ScrubOptions.listing().repair(true));
        assertThat(repaired.copiesRepaired()).isEqualTo(wiped.size());
        assertThat(hybrisObjectsOn(raw.get(1))).isEqualTo(wiped);
        assertThat(h.scrub(ScrubOptions.listing()).healthy()).isEqualTo(written.size());
        down.get(2).setActive(true);
        assertEverythingReads(h);
    }

    @Test
    void aRefusingCloudIsReplacedThroughAConditionalUpdateOfTheStore() {
        AtomicBoolean refuse = new AtomicBoolean();
        List<CloudStore> clouds = List.of(raw.get(0), refusing(raw.get(1), refuse), raw.get(2));
        Hybris h = client(clouds);
        write(h, 30, 0);
        Set<String> onC1 = hybrisObjectsOn(raw.get(1));
        onC1.forEach(name -> raw.get(1).delete(name));
        refuse.set(true);

        List<KeyHealth> reported = new ArrayList<>();
        ScrubReport r = h.scrub(ScrubOptions.listing().repair(true).listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                if (health.status() != KeyHealth.Status.HEALTHY) {
                    reported.add(health);
                }
            }
        }));
        assertThat(r.copiesRepaired()).isEqualTo(onC1.size());
        assertThat(reported).hasSize(onC1.size()).allSatisfy(k -> {
            assertThat(k.status()).isEqualTo(KeyHealth.Status.REPAIRED);
            assertThat(k.repairedOn()).containsExactly("c2");
        });
        written.keySet().forEach(k -> assertThat(h.describe(C, k).orElseThrow().clouds()).doesNotContain("c1")
                .hasSize(2));
        assertEverythingReads(h);
    }

    @Test
    void aConcurrentWriteWinsOverTheRepairsConditionalUpdate() {
        AtomicBoolean refuse = new AtomicBoolean();
        // each version written by a client that has measured nothing yet (its ranking is the configured order) over
        // the in-memory clouds, which store on the caller's thread: c0, then c1, so both versions list [c0, c1], and
        // the repair's retry must see that the version changed, not only the placement (a retry checking the clouds
        // alone rewrote the second version's placement with the first's rebuilt copy)
        Hybris writer = client(raw);
        Hybris secondWriter = client(raw);
        written.put("hot", bytes("first"));
        writer.put(C, "hot", bytes("first"));
        String oldName = hybrisObjectsOn(raw.get(0)).iterator().next();
        assertThat(writer.describe(C, "hot").orElseThrow().clouds()).containsExactly("c0", "c1");
        raw.get(1).delete(oldName);
        refuse.set(true);
        AtomicBoolean raced = new AtomicBoolean();
        CloudStore racingC2 = new ForwardingCloudStore(raw.get(2)) {
            @Override
            public void put(String objectKey, byte[] value) {
                super.put(objectKey, value);
                if (objectKey.equals(oldName) && raced.compareAndSet(false, true)) {
                    secondWriter.put(C, "hot", bytes("second")); // commits before the repair records its move
                }
            }
        };
        Hybris repairer = client(List.of(raw.get(0), refusing(raw.get(1), refuse), racingC2));
        List<KeyHealth> reported = new ArrayList<>();
        repairer.scrub(ScrubOptions.listing().repair(true).listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                reported.add(health);
            }
        }));
        assertThat(raced).isTrue();
        assertThat(reported).singleElement().satisfies(k ->
                assertThat(k.status()).isEqualTo(KeyHealth.Status.SUPERSEDED));
        assertThat(writer.describe(C, "hot").orElseThrow().clouds()).as("the second version's placement")
                .containsExactly("c0", "c1");
        assertThat(str(writer.get(C, "hot"))).isEqualTo("second");
        // the rebuilt copy of the superseded version is an orphan: the sweep deletes it, nothing else
        writer.sweepOrphans();
        assertThat(hybrisObjectsOn(raw.get(2))).doesNotContain(oldName);
        assertThat(str(repairer.get(C, "hot"))).isEqualTo("second");
    }
}
