/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.SweepReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The orphan sweep deletes a copy of a key's current version from a cloud its metadata does not list once it is older
 * than the grace period (a migration's leftover, a late upload whose delete failed). A repair that moves a copy onto
 * that very cloud writes the same name there: a sweep that judged the leftover before the move was recorded, and
 * deletes it after the move wrote it, took the rebuilt copy the metadata now lists. The repair must not rebuild over
 * an unreferenced copy of the version (the sweep may be deleting it); it places the copy on another cloud.
 */
class SweepDuringRepairMoveTest {
    private final MutableClock clock = new MutableClock();
    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(4, clock);
    private final CountDownLatch deleteHeld = new CountDownLatch(1);
    private final CountDownLatch releaseDelete = new CountDownLatch(1);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        releaseDelete.countDown();
        opened.close();
    }

    private Hybris open(List<? extends CloudStore> clouds) {
        return opened.open(OpenedClients.config(store, clouds).deadline(Duration.ofSeconds(5)).clock(clock));
    }

    /**
     * c2 as the sweep sees it: its delete of a value's copy is held until the test releases it (its clock marker's,
     * under the probe directory, is not: held, the sweep would read the key's metadata only after the repair).
     */
    private CloudStore holdingFirstDelete(CloudStore cloud) {
        return new ForwardingCloudStore(cloud) {
            @Override
            public void delete(String objectKey) {
                if (objectKey.contains("/.probe/")) {
                    super.delete(objectKey);
                    return;
                }
                deleteHeld.countDown();
                try {
                    assertThat(releaseDelete.await(10, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                super.delete(objectKey);
            }
        };
    }

    private static CloudStore refusingWrites(CloudStore cloud) {
        return new ForwardingCloudStore(cloud) {
            @Override
            public void put(String objectKey, byte[] value) {
                throw new TransientCloudException(cloud.id(), "injected: refuses writes");
            }
        };
    }

    @Test
    void aCopyMovedOntoACloudHoldingALeftoverOfItsVersionSurvivesASweepJudgingThatLeftover() throws Exception {
        byte[] value = "hot value".getBytes(StandardCharsets.UTF_8);
        Hybris writer = open(raw);
        assertThat(writer.put("c", "hot", value).clouds()).containsExactlyInAnyOrder("c0", "c1");
        String name = raw.get(0).list("").get(0).key();
        raw.get(2).put(name, value); // a leftover of the current version on c2 (say, a late upload's failed delete)
        clock.advance(Duration.ofHours(2)); // older than the grace period (1 h)
        raw.get(1).delete(name); // c1 loses its copy, and will refuse it back: the repair moves it

        Hybris sweeper = open(List.of(raw.get(0), raw.get(1), holdingFirstDelete(raw.get(2)), raw.get(3)));
        CompletableFuture<SweepReport> sweep = CompletableFuture.supplyAsync(sweeper::sweepOrphans);
        assertThat(deleteHeld.await(10, TimeUnit.SECONDS)).as("the sweep is deleting the leftover on c2").isTrue();

        Hybris repairer = open(List.of(raw.get(0), refusingWrites(raw.get(1)), raw.get(2), raw.get(3)));
        List<KeyHealth> seen = new ArrayList<>();
        repairer.scrub(ScrubOptions.listing().repair(true).listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                seen.add(health);
            }
        }));
        releaseDelete.countDown();
        sweep.get(10, TimeUnit.SECONDS);

        assertThat(seen).singleElement().satisfies(k -> assertThat(k.status()).as(k.toString())
                .isEqualTo(KeyHealth.Status.REPAIRED));
        List<String> listed = writer.describe("c", "hot").orElseThrow().clouds();
        assertThat(listed).hasSize(2).contains("c0");
        for (String cloud : listed) {
            assertThat(raw.get(Integer.parseInt(cloud.substring(1))).get(name, Long.MAX_VALUE))
                    .as("the copy the metadata lists on %s", cloud).hasValue(value);
        }
        for (InMemoryCloudStore down : raw) {
            List<CloudStore> others = new ArrayList<>(raw);
            others.set(raw.indexOf(down), UnavailableCloudStore.of(down));
            assertThat(open(others).get("c", "hot")).as("read with %s down", down.id()).hasValue(value);
        }
    }
}
