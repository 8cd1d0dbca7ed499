/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.hybris.HybrisListener.CacheResult;
import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.CloudRequest;
import io.hybris.HybrisListener.ConflictResolution;
import io.hybris.HybrisListener.GcCause;
import io.hybris.HybrisListener.MetadataOperation;
import io.hybris.HybrisListener.MetadataOutcome;
import io.hybris.HybrisListener.Operation;
import io.hybris.HybrisListener.OperationOutcome;
import io.hybris.HybrisListener.Outcome;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each listener event fed straight to {@link HybrisMetrics} lands on the meter and tag values docs/metrics.md
 * names: the events the known-sequence test never produces (metadata failures, CAS conflicts, cache lookups,
 * restarts, unreferenced GC deletions), the common tags on every meter, and the histogram bounds.
 */
class ListenerEventMetersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final HybrisMetrics metrics = new HybrisMetrics(registry);

    @Test
    void metadataCallsKeepTheirOutcome() {
        metrics.metadataCall(MetadataOperation.UPDATE, MetadataOutcome.CONFLICT, Duration.ofMillis(3));
        metrics.metadataCall(MetadataOperation.READ, MetadataOutcome.UNAVAILABLE, Duration.ofMillis(3));
        metrics.metadataCall(MetadataOperation.READ, MetadataOutcome.OK, Duration.ofMillis(3));
        assertThat(registry.get(MetricNames.METADATA_CALLS).tag("op", "update").tag("outcome", "conflict").timer()
                .count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.METADATA_CALLS).tag("op", "read").tag("outcome", "unavailable").timer()
                .count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.METADATA_CALLS).tag("op", "read").tag("outcome", "ok").timer()
                .count()).isEqualTo(1);
        assertThat(registry.find(MetricNames.METADATA_CALLS).timers()).hasSize(3);
    }

    @Test
    void casConflictsAreCountedByResolution() {
        metrics.casConflict("c", 1, ConflictResolution.RETRY);
        metrics.casConflict("c", 1, ConflictResolution.OVERWRITTEN);
        metrics.casConflict("c", 2, ConflictResolution.OVERWRITTEN);
        assertThat(registry.get(MetricNames.CAS_CONFLICTS).tag("resolution", "retry").counter().count())
                .isEqualTo(1);
        assertThat(registry.get(MetricNames.CAS_CONFLICTS).tag("resolution", "overwritten").counter().count())
                .isEqualTo(2);
        assertThat(registry.find(MetricNames.CAS_CONFLICTS).counters()).hasSize(2);
    }

    @Test
    void cacheLookupsAreCountedByResult() {
        metrics.cacheLookup(CacheResult.HIT);
        metrics.cacheLookup(CacheResult.MISS);
        metrics.cacheLookup(CacheResult.MISS);
        metrics.cacheLookup(CacheResult.REJECTED);
        assertThat(registry.get(MetricNames.CACHE_REQUESTS).tag("result", "hit").counter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.CACHE_REQUESTS).tag("result", "miss").counter().count()).isEqualTo(2);
        assertThat(registry.get(MetricNames.CACHE_REQUESTS).tag("result", "rejected").counter().count())
                .isEqualTo(1);
    }

    @Test
    void restartsAndWorstCaseGetsAreSeparateCounters() {
        metrics.worstCaseGet("c", "k");
        metrics.getRestarted("c", "k");
        metrics.getRestarted("c", "k");
        assertThat(registry.get(MetricNames.WORST_CASE_GETS).counter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.GET_RESTARTS).counter().count()).isEqualTo(2);
    }

    @Test
    void deletionsAreCountedByCause() {
        metrics.garbageCollected("c0", "o1", GcCause.UNREFERENCED);
        metrics.garbageCollected("c0", "o2", GcCause.SUPERSEDED);
        metrics.garbageCollected("c0", "o3", GcCause.UNREFERENCED);
        metrics.garbageCollected("c0", "o4", GcCause.SWEEP);
        assertThat(registry.get(MetricNames.GC_DELETIONS).tag("cloud", "c0").tag("cause", "unreferenced").counter()
                .count()).isEqualTo(2);
        assertThat(registry.get(MetricNames.GC_DELETIONS).tag("cloud", "c0").tag("cause", "superseded").counter()
                .count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.SWEEP_DELETIONS).tag("cloud", "c0").counter().count()).isEqualTo(1);
    }

    @Test
    void theCommonTagsAreOnEveryMeter() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry(); // no untagged meters of the field's metrics
        HybrisMetrics tagged = new HybrisMetrics(registry, Tags.of("client", "a"));
        tagged.operation(Operation.PUT, "c", OperationOutcome.OK, Duration.ofMillis(5));
        tagged.metadataCall(MetadataOperation.UPDATE, MetadataOutcome.OK, Duration.ofMillis(2));
        tagged.cloudRequest(new CloudRequest("c0", CloudOperation.PUT, "o", Outcome.OK, Duration.ofMillis(4), 10,
                null));
        tagged.cloudRequest(new CloudRequest("c0", CloudOperation.GET, "o", Outcome.ABANDONED, Duration.ofMillis(4),
                0, null));
        tagged.garbageCollected("c0", "o", GcCause.SUPERSEDED);
        tagged.garbageCollected("c0", "o", GcCause.SWEEP);
        tagged.casConflict("c", 1, ConflictResolution.RETRY);
        tagged.cacheLookup(CacheResult.HIT);
        assertThat(registry.getMeters()).isNotEmpty().allSatisfy((Meter m) ->
                assertThat(m.getId().getTag("client")).as(m.getId().toString()).isEqualTo("a"));
        // a second client's meters stay apart
        new HybrisMetrics(registry, Tags.of("client", "b")).cloudRequest(new CloudRequest("c0", CloudOperation.PUT,
                "o", Outcome.OK, Duration.ofMillis(4), 7, null));
        assertThat(registry.get(MetricNames.CLOUD_BYTES).tag("client", "a").tag("direction", "out").counter()
                .count()).isEqualTo(10);
        assertThat(registry.get(MetricNames.CLOUD_BYTES).tag("client", "b").tag("direction", "out").counter()
                .count()).isEqualTo(7);
    }

    @Test
    void histogramBucketsStayBetweenOneMillisecondAndSixtySeconds() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HybrisMetrics m = new HybrisMetrics(prometheus);
        m.operation(Operation.GET, "c", OperationOutcome.OK, Duration.ofMillis(5));
        m.cloudRequest(new CloudRequest("c0", CloudOperation.GET, "o", Outcome.OK, Duration.ofMillis(4), 1, null));
        m.metadataCall(MetadataOperation.READ, MetadataOutcome.OK, Duration.ofMillis(2));
        for (String timer : new String[] {"hybris_operations_seconds", "hybris_cloud_latency_seconds",
                "hybris_metadata_calls_seconds"}) {
            var bounds = prometheus.scrape().lines().filter(l -> l.startsWith(timer + "_bucket{"))
                    .map(l -> l.replaceAll(".*le=\"([^\"]*)\".*", "$1")).filter(le -> !le.equals("+Inf"))
                    .mapToDouble(Double::parseDouble).toArray();
            assertThat(bounds).as(timer).isNotEmpty();
            assertThat(java.util.Arrays.stream(bounds).min().orElseThrow()).as(timer).isGreaterThanOrEqualTo(0.001);
            assertThat(java.util.Arrays.stream(bounds).max().orElseThrow()).as(timer).isLessThanOrEqualTo(60.0)
                    .as("%s: buckets reach past Micrometer's 30 s default, up to 60 s", timer).isGreaterThan(30.0);
            assertThat(bounds.length).as("%s buckets", timer).isLessThan(80);
        }
        // withoutHistograms: no buckets at all, count and sum stay
        PrometheusMeterRegistry plain = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new HybrisMetrics(plain).withoutHistograms().operation(Operation.GET, "c", OperationOutcome.OK,
                Duration.ofMillis(5));
        assertThat(plain.scrape()).doesNotContain("_bucket{")
                .contains("hybris_operations_seconds_count{op=\"get\",outcome=\"ok\"} 1");
    }
}
