/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.cost.CloudPrices;
import io.hybris.cost.CostSettings;
import io.hybris.cost.Placement;
import io.hybris.internal.LatencyRanking.Op;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CloudPreferenceTest {
    private static final List<String> CLOUDS = List.of("pricey", "cheap-storage", "cheap-egress");
    private static final long MIB = 1 << 20;
    private final LatencyRanking ranking = new LatencyRanking(CLOUDS, Duration.ofMillis(100), Duration.ofSeconds(2),
            3.0, () -> 0L);

    private CloudPreference preference(Placement placement, Duration objective) {
        CostSettings.Builder b = CostSettings.builder().placement(placement)
                .prices("pricey", CloudPrices.flat(0.05, 0.005, 0.0004, 0, 0.15))
                .prices("cheap-storage", CloudPrices.flat(0.02, 0.005, 0.0004, 0, 0.09))
                .prices("cheap-egress", CloudPrices.flat(0.03, 0.005, 0.0004, 0, 0.02));
        if (objective != null) {
            b.latencyObjective(objective);
        }
        return new CloudPreference(ranking, b.build(), new Quarantine(0, java.time.Duration.ofMinutes(1), io.hybris.HybrisListener.of(), System::nanoTime));
    }

    private void latency(String cloud, Op op, long millis) {
        ranking.recordSuccess(cloud, op, MIB, Duration.ofMillis(millis).toNanos());
    }

    @Test
    void latencyPlacementIsTheRanking() {
        latency("pricey", Op.WRITE, 10);
        latency("cheap-storage", Op.WRITE, 30);
        latency("cheap-egress", Op.WRITE, 20);
        assertThat(preference(Placement.LATENCY, null).order(CLOUDS, Op.WRITE, MIB))
                .containsExactly("pricey", "cheap-egress", "cheap-storage");
    }

    @Test
    void costPlacementOrdersCloudsWithinTheObjectiveByExpectedCost() {
        latency("pricey", Op.WRITE, 10);
        latency("cheap-storage", Op.WRITE, 30);
        latency("cheap-egress", Op.WRITE, 20);
        CloudPreference cost = preference(Placement.COST, Duration.ofMillis(100));
        // write: PUT + storage for a month + one read's egress: 0.05 vs 0.11 vs 0.20 per GB
        assertThat(cost.order(CLOUDS, Op.WRITE, MIB)).containsExactly("cheap-egress", "cheap-storage", "pricey");
        // read: the cheapest egress among the candidates
        assertThat(cost.order(List.of("pricey", "cheap-storage"), Op.READ, MIB))
                .containsExactly("cheap-storage", "pricey");
    }

    @Test
    void aCloudPastTheObjectiveGoesLastFastestFirst() {
        latency("pricey", Op.WRITE, 10);
        latency("cheap-storage", Op.WRITE, 30);
        latency("cheap-egress", Op.WRITE, 500);
        assertThat(preference(Placement.COST, Duration.ofMillis(100)).order(CLOUDS, Op.WRITE, MIB))
                .containsExactly("cheap-storage", "pricey", "cheap-egress");
        // relative: 2x the fastest (10 ms) plus 10 ms = 30 ms
        assertThat(preference(Placement.COST, null).order(CLOUDS, Op.WRITE, MIB))
                .containsExactly("cheap-storage", "pricey", "cheap-egress");
        latency("cheap-storage", Op.WRITE, 31);
        latency("cheap-storage", Op.WRITE, 1000);
        assertThat(preference(Placement.COST, null).order(CLOUDS, Op.WRITE, MIB))
                .containsExactly("pricey", "cheap-storage", "cheap-egress");
    }

    @Test
    void aFailedCloudIsPastTheObjectiveAndAnUnmeasuredOneWithin() {
        latency("pricey", Op.READ, 10);
        ranking.recordFailure("cheap-egress", Op.READ, MIB); // penalty: twice its timer
        assertThat(preference(Placement.COST, Duration.ofMillis(100)).order(CLOUDS, Op.READ, MIB))
                .containsExactly("cheap-storage", "pricey", "cheap-egress");
    }

    @Test
    void balancedWeighsRelativeCostAgainstRelativeLatency() {
        latency("pricey", Op.READ, 10);
        latency("cheap-storage", Op.READ, 12);
        latency("cheap-egress", Op.READ, 40);
        // read cost per MiB: pricey 0.15, cheap-storage 0.09, cheap-egress 0.02 (+ the GET); relative to the
        // cheapest: 7.5, 4.5, 1; latency relative to the fastest: 1, 1.2, 4
        assertThat(preference(Placement.BALANCED, Duration.ofMillis(100)).order(CLOUDS, Op.READ, MIB))
                .containsExactly("cheap-egress", "cheap-storage", "pricey");
        assertThat(preference(Placement.COST, Duration.ofMillis(100)).order(CLOUDS, Op.READ, MIB))
                .containsExactly("cheap-egress", "cheap-storage", "pricey");
        latency("cheap-egress", Op.READ, 90);
        latency("cheap-egress", Op.READ, 90);
        latency("cheap-egress", Op.READ, 90);
        latency("cheap-egress", Op.READ, 90);
        // now about 8x the fastest: balanced prefers the near-fastest cheap-storage, cost still the cheapest
        assertThat(preference(Placement.BALANCED, Duration.ofMillis(100)).order(CLOUDS, Op.READ, MIB))
                .containsExactly("cheap-storage", "pricey", "cheap-egress");
        assertThat(preference(Placement.COST, Duration.ofMillis(100)).order(CLOUDS, Op.READ, MIB))
                .containsExactly("cheap-egress", "cheap-storage", "pricey");
    }

    /**
     * A cloud being migrated off (retired) takes no writes, but reads still ask it, in latency order: the versions
     * not moved yet are only there. Writes use it again once every migration retiring it ended.
     */
    @Test
    void aRetiredCloudIsLeftOutOfWritesOnlyUntilEveryRetirementEnds() {
        latency("pricey", Op.WRITE, 10);
        latency("cheap-storage", Op.WRITE, 30);
        latency("cheap-egress", Op.WRITE, 20);
        latency("pricey", Op.READ, 10);
        latency("cheap-storage", Op.READ, 30);
        latency("cheap-egress", Op.READ, 20);
        CloudPreference p = preference(Placement.LATENCY, null);
        p.retire("pricey");
        p.retire("pricey"); // two migrations off it
        assertThat(p.order(CLOUDS, Op.WRITE, MIB)).containsExactly("cheap-egress", "cheap-storage");
        assertThat(p.order(CLOUDS, Op.READ, MIB)).containsExactly("pricey", "cheap-egress", "cheap-storage");
        p.unretire("pricey");
        assertThat(p.order(CLOUDS, Op.WRITE, MIB)).as("one migration still retires it")
                .containsExactly("cheap-egress", "cheap-storage");
        p.unretire("pricey");
        assertThat(p.order(CLOUDS, Op.WRITE, MIB)).containsExactly("pricey", "cheap-egress", "cheap-storage");
    }
}
