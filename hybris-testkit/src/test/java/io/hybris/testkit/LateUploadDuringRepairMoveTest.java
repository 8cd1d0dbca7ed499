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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A PUT's upload that lands after its race decided without it is deleted by the writer as it lands. A repair may
 * have moved the version's copy onto that very cloud meanwhile (the copy the PUT recorded elsewhere was lost, and its
 * cloud refused it back), under the same name: deleting the late upload then took the copy the metadata lists. The
 * late upload is deleted only if the key's metadata does not list its cloud for that version.
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
}
