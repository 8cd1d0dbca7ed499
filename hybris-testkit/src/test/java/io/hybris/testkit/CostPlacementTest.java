/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cost.CloudPrices;
import io.hybris.cost.CostSettings;
import io.hybris.cost.Placement;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Cost-aware placement with three clouds at different prices: which clouds a write and a read contact, and that a
 * cloud turning slow past the latency objective is skipped.
 */
class CostPlacementTest extends HybrisContractFixture {
    private static final byte[] VALUE = new byte[64 << 10];

    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }

    /** c0 dearest everywhere, c1 cheapest storage, c2 cheapest egress (and cheapest overall for a write). */
    private HybrisConfig.Builder priced(List<? extends io.hybris.spi.CloudStore> clouds) {
        return config(clouds).timerMin(Duration.ofMillis(50)).costs(CostSettings.builder()
                .placement(Placement.COST).latencyObjective(Duration.ofMillis(100))
                .prices("c0", CloudPrices.flat(0.05, 0.005, 0.0004, 0, 0.15))
                .prices("c1", CloudPrices.flat(0.02, 0.005, 0.0004, 0, 0.09))
                .prices("c2", CloudPrices.flat(0.03, 0.005, 0.0004, 0, 0.02))
                .build());
    }

    @Test
    void writesGoToTheTwoCheapestAndReadsToTheCheapestEgress() {
        List<RecordingCloudStore> clouds = recording(c -> c);
        Hybris h = open(priced(clouds));
        for (int i = 0; i < 20; i++) {
            assertThat(h.put(C, "k" + i, VALUE).clouds()).containsExactlyInAnyOrder("c1", "c2");
        }
        clouds.forEach(RecordingCloudStore::reset);
        for (int i = 0; i < 20; i++) {
            assertThat(h.get(C, "k" + i)).contains(VALUE);
        }
        assertThat(clouds.get(2).count(RecordingCloudStore.Op.GET)).isEqualTo(20);
        assertThat(clouds.get(0).count(RecordingCloudStore.Op.GET)).isZero();
        assertThat(clouds.get(1).count(RecordingCloudStore.Op.GET)).isZero();
        assertThat(clouds.get(0).count(RecordingCloudStore.Op.PUT)).isZero();
    }

    @Test
    void latencyPlacementWithTheSamePricesWritesByConfigurationOrderWhenNothingIsMeasured() {
        List<RecordingCloudStore> clouds = recording(c -> c);
        Hybris h = open(priced(clouds).costs(CostSettings.builder().placement(Placement.LATENCY).build()));
        assertThat(h.put(C, "k", VALUE).clouds()).containsExactlyInAnyOrder("c0", "c1");
    }

    @Test
    void aCloudThatTurnsSlowPastTheObjectiveIsSkipped() {
        SlowCloudStore slowC2 = SlowCloudStore.of(raw.get(2), Duration.ofMillis(400));
        slowC2.setActive(false);
        List<RecordingCloudStore> clouds = recording(c -> c);
        clouds = List.of(clouds.get(0), clouds.get(1), RecordingCloudStore.of(slowC2));
        Hybris h = open(priced(clouds));
        assertThat(h.put(C, "before", VALUE).clouds()).containsExactlyInAnyOrder("c1", "c2");

        slowC2.setActive(true);
        // the first writes still ask c2 first (its estimate is fast) and its timer brings in c0; once c2's slow
        // answer (or its failure) is recorded, it is past the objective: writes go to c1 and c0 and c2 is not asked
        RecordingCloudStore c2 = clouds.get(2);
        int[] n = {0};
        await().atMost(AWAIT).until(() -> {
            long before = c2.count(RecordingCloudStore.Op.PUT);
            boolean onC2 = h.put(C, "during" + n[0]++, VALUE).clouds().contains("c2");
            return !onC2 && c2.count(RecordingCloudStore.Op.PUT) == before; // c2 not even asked
        });
        long putsOnC2 = c2.count(RecordingCloudStore.Op.PUT);
        for (int i = 0; i < 10; i++) {
            assertThat(h.put(C, "after" + i, VALUE).clouds()).containsExactlyInAnyOrder("c0", "c1");
        }
        assertThat(c2.count(RecordingCloudStore.Op.PUT)).isEqualTo(putsOnC2);
        // reads of values on c0 and c1 go to the cheaper egress of the two, c1
        clouds.forEach(RecordingCloudStore::reset);
        assertThat(h.get(C, "after0")).contains(VALUE);
        assertThat(clouds.get(1).count(RecordingCloudStore.Op.GET)).isEqualTo(1);
        assertThat(clouds.get(0).count(RecordingCloudStore.Op.GET)).isZero();
    }
}
