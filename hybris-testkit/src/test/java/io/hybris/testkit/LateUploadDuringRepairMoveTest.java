/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.TransientCloudException;
import io.hybris.spi.VersionedValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A PUT's upload that lands after its race decided without it is deleted by the writer as it lands. A repair may
 * have moved the version's copy onto that very cloud meanwhile (the copy the PUT recorded elsewhere was lost, and its
 * cloud refused it back), under the same name: deleting the late upload then took the copy the metadata lists. The
 * late upload is deleted only if the key's metadata does not list its cloud for that version. The other order: the
 * late upload lands, and the collector judges it, after the repair stored the moved copy but before it recorded the
 * move; the collector then reads metadata that does not list the cloud yet and deletes the moved copy by name. The
 * repair checks its moved copies once recorded, and the collector reads the metadata again after its delete.
 */
class LateUploadDuringRepairMoveTest {
    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final GatedCloudStore lateC1 = GatedCloudStore.of(raw.get(1), name -> true);
    private final AtomicBoolean landed = new AtomicBoolean();
    private final AtomicInteger readsAfterLanding = new AtomicInteger();
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        lateC1.open();
        opened.close();
    }

    private Hybris open(MetadataStore metadata, List<? extends CloudStore> clouds, Duration timer) {
        return opened.open(OpenedClients.config(metadata, clouds).deadline(Duration.ofSeconds(10)).timerInitial(timer)
                .timerMin(timer));
    }

    /** The writer's metadata store: counts the reads made once the late upload has landed (its GC's, if any). */
    private MetadataStore countingReads() {
        return new ForwardingMetadataStore(store) {
            @Override
            public Optional<VersionedValue> read(MetadataKey key) {
                Optional<VersionedValue> v = super.read(key);
                if (landed.get()) {
                    readsAfterLanding.incrementAndGet();
                }
                return v;
            }
        };
    }

    @Test
    void aLateUploadLandingOnACloudARepairMovedTheCopyOntoIsKept() {
        byte[] value = "value".getBytes(StandardCharsets.UTF_8);
        CloudStore c1 = new ForwardingCloudStore(lateC1) {
            @Override
            public void put(String objectKey, byte[] bytes) {
                super.put(objectKey, bytes);
                landed.set(true);
            }
        };
        Hybris writer = open(countingReads(), List.of(raw.get(0), c1, SlowCloudStore.of(raw.get(2),
                Duration.ofMillis(1))), Duration.ofMillis(30));
        // c1's upload is held past the timer: the PUT commits with c0 and the secondary c2, c1's upload still running
        assertThat(writer.put("c", "k", value).clouds()).containsExactlyInAnyOrder("c0", "c2");
        assertThat(lateC1.blockedCount()).isEqualTo(1);
        String name = raw.get(0).list("").get(0).key();
        raw.get(2).delete(name); // c2 loses its copy and refuses it back: the repair moves it to c1
        CloudStore refusingC2 = new ForwardingCloudStore(raw.get(2)) {
            @Override
            public void put(String objectKey, byte[] bytes) {
                throw new TransientCloudException("c2", "injected: refuses writes");
            }
        };
        Hybris repairer = open(store, List.of(raw.get(0), raw.get(1), refusingC2), Duration.ofMillis(250));
        ScrubReport report = repairer.scrub(ScrubOptions.listing().repair(true));
        assertThat(report.repaired()).isEqualTo(1);
        assertThat(repairer.describe("c", "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c0", "c1");

        lateC1.open(); // the late upload lands on c1, where the metadata now lists the version
        await().atMost(Duration.ofSeconds(10)).until(() -> readsAfterLanding.get() > 0
                || raw.get(1).get(name, Long.MAX_VALUE).isEmpty());
        writer.close(); // waits for its garbage collection to finish

        assertThat(raw.get(1).get(name, Long.MAX_VALUE)).as("the copy the metadata lists on c1").hasValue(value);
        for (InMemoryCloudStore down : raw) {
            List<CloudStore> others = new ArrayList<>(raw);
            others.set(raw.indexOf(down), UnavailableCloudStore.of(down));
            assertThat(open(store, others, Duration.ofMillis(250)).get("c", "k")).as("read with %s down", down.id())
                    .hasValue(value);
        }
    }

    /**
     * A client repairing with c2 refusing writes (its copy is moved to c1), whose placement update waits at the
     * metadata store: {@code sent} counts down when it is sent, and it goes on once {@code go} counts down.
     */
    private Hybris repairerWithPlacementHeld(CountDownLatch sent, CountDownLatch go) {
        CloudStore refusingC2 = new ForwardingCloudStore(raw.get(2)) {
            @Override
            public void put(String objectKey, byte[] bytes) {
                throw new TransientCloudException("c2", "injected: refuses writes");
            }
        };
        return open(HeldUpdates.first(store, u -> true, sent, go, Duration.ofSeconds(10)),
                List.of(raw.get(0), raw.get(1), refusingC2), Duration.ofMillis(250));
    }

    @Test
    void aLateUploadJudgedBeforeTheMoveIsRecordedDoesNotTakeTheMovedCopy() throws Exception {
        byte[] value = "value".getBytes(StandardCharsets.UTF_8);
        Hybris writer = open(store, List.of(raw.get(0), lateC1, SlowCloudStore.of(raw.get(2),
                Duration.ofMillis(1))), Duration.ofMillis(30));
        assertThat(writer.put("c", "k", value).clouds()).containsExactlyInAnyOrder("c0", "c2");
        assertThat(lateC1.blockedCount()).isEqualTo(1);
        String name = raw.get(0).list("").get(0).key();
        raw.get(2).delete(name); // c2 loses its copy and refuses it back: the repair moves it to c1
        CountDownLatch placementSent = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Hybris repairer = repairerWithPlacementHeld(placementSent, go);
        CompletableFuture<ScrubReport> scrub = CompletableFuture.supplyAsync(
                () -> repairer.scrub(ScrubOptions.listing().repair(true)));
        assertThat(placementSent.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(raw.get(1).get(name, Long.MAX_VALUE)).as("the moved copy, stored before its record").hasValue(value);

        lateC1.open(); // the late upload lands on c1; the metadata does not list c1 yet
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(1).get(name, Long.MAX_VALUE).isEmpty());
        go.countDown();
        ScrubReport report = scrub.get(10, TimeUnit.SECONDS);
        assertThat(report.repaired()).isEqualTo(1);
        assertThat(repairer.describe("c", "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c0", "c1");
        writer.close();

        assertThat(raw.get(1).get(name, Long.MAX_VALUE)).as("the copy the metadata lists on c1").hasValue(value);
        List<CloudStore> c0Down = new ArrayList<>(raw);
        c0Down.set(0, UnavailableCloudStore.of(raw.get(0)));
        assertThat(open(store, c0Down, Duration.ofMillis(250)).get("c", "k")).as("read with c0 down").hasValue(value);
    }

    /**
     * The other order of the same race: the writer's collector read the metadata before the move was recorded, and its
     * delete reaches the cloud only after the repair has recorded the move and found its copy in place.
     */
    @Test
    void aLateUploadDeletedAfterTheMoveWasRecordedAndCheckedIsStoredBack() throws Exception {
        byte[] value = "value".getBytes(StandardCharsets.UTF_8);
        CountDownLatch deleteHeld = new CountDownLatch(1);
        CountDownLatch deleteGo = new CountDownLatch(1);
        CloudStore c1 = new ForwardingCloudStore(lateC1) {
            @Override
            public void delete(String objectKey) {
                deleteHeld.countDown();
                try {
                    deleteGo.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                super.delete(objectKey);
            }
        };
        Hybris writer = open(store, List.of(raw.get(0), c1, SlowCloudStore.of(raw.get(2), Duration.ofMillis(1))),
                Duration.ofMillis(30));
        assertThat(writer.put("c", "k", value).clouds()).containsExactlyInAnyOrder("c0", "c2");
        String name = raw.get(0).list("").get(0).key();
        raw.get(2).delete(name);
        CountDownLatch placementSent = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Hybris repairer = repairerWithPlacementHeld(placementSent, go);
        CompletableFuture<ScrubReport> scrub = CompletableFuture.supplyAsync(
                () -> repairer.scrub(ScrubOptions.listing().repair(true)));
        assertThat(placementSent.await(10, TimeUnit.SECONDS)).isTrue();
        lateC1.open(); // lands; the collector reads metadata without c1, and its delete is held
        assertThat(deleteHeld.await(10, TimeUnit.SECONDS)).isTrue();
        go.countDown();
        assertThat(scrub.get(10, TimeUnit.SECONDS).repaired()).isEqualTo(1);
        deleteGo.countDown();
        writer.close(); // waits for its garbage collection to finish

        assertThat(repairer.describe("c", "k").orElseThrow().clouds()).containsExactlyInAnyOrder("c0", "c1");
        assertThat(raw.get(1).get(name, Long.MAX_VALUE)).as("the copy the metadata lists on c1").hasValue(value);
    }
}
