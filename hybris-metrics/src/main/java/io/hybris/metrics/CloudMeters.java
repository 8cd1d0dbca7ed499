/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.CloudRequest;
import io.hybris.HybrisListener.FailureKind;
import io.hybris.HybrisListener.GcCause;
import io.hybris.HybrisListener.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import static io.hybris.metrics.MetricNames.tag;

/** The meters of one cloud: requests, latency, errors by kind, bytes in and out, deletions. Thread-safe. */
final class CloudMeters {
    private static final int OPS = CloudOperation.values().length;
    private static final int OUTCOMES = Outcome.values().length;
    private static final int KINDS = FailureKind.values().length;

    private final LazyMeters<Counter> requests;
    private final LazyMeters<Timer> latency;
    private final LazyMeters<Counter> errors;
    private final LazyMeters<Counter> abandoned;
    private final LazyMeters<Counter> gcDeletions;
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final Counter sweepDeletions;

    CloudMeters(MeterRegistry registry, Tags common, String cloudId, Histograms histograms) {
        Tags cloud = common.and(MetricNames.TAG_CLOUD, cloudId);
        CloudOperation[] ops = CloudOperation.values();
        Outcome[] outcomes = Outcome.values();
        FailureKind[] kinds = FailureKind.values();
        requests = new LazyMeters<>(OPS * OUTCOMES, i -> Counter.builder(MetricNames.CLOUD_REQUESTS)
                .description("Cloud requests that completed, by operation and outcome")
                .tags(cloud).tag(MetricNames.TAG_OP, tag(ops[i / OUTCOMES]))
                .tag(MetricNames.TAG_OUTCOME, tag(outcomes[i % OUTCOMES]))
                .register(registry));
        latency = new LazyMeters<>(OPS, i -> histograms.apply(Timer.builder(MetricNames.CLOUD_LATENCY)
                        .description("Latency of completed cloud requests, whatever their outcome"))
                .tags(cloud).tag(MetricNames.TAG_OP, tag(ops[i]))
                .register(registry));
        errors = new LazyMeters<>(OPS * KINDS, i -> Counter.builder(MetricNames.CLOUD_ERRORS)
                .description("Cloud requests that failed, by kind of failure")
                .tags(cloud).tag(MetricNames.TAG_OP, tag(ops[i / KINDS]))
                .tag(MetricNames.TAG_KIND, tag(kinds[i % KINDS]))
                .register(registry));
        abandoned = new LazyMeters<>(OPS, i -> Counter.builder(MetricNames.CLOUD_ABANDONED)
                .description("Cloud requests Hybris stopped waiting for (answer no longer needed)")
                .tags(cloud).tag(MetricNames.TAG_OP, tag(ops[i]))
                .register(registry));
        GcCause[] causes = GcCause.values();
        gcDeletions = new LazyMeters<>(causes.length, i -> Counter.builder(MetricNames.GC_DELETIONS)
                .description("Objects deleted by background garbage collection")
                .tags(cloud).tag(MetricNames.TAG_CAUSE, tag(causes[i]))
                .register(registry));
        bytesIn = bytes(registry, cloud, "in");
        bytesOut = bytes(registry, cloud, "out");
        sweepDeletions = Counter.builder(MetricNames.SWEEP_DELETIONS)
                .description("Objects deleted by the orphan sweep")
                .tags(cloud).register(registry);
    }

    private static Counter bytes(MeterRegistry registry, Tags cloud, String direction) {
        // one description for the family (Prometheus prints one HELP line for both directions)
        return Counter.builder(MetricNames.CLOUD_BYTES).baseUnit("bytes").description(
                        "Payload bytes by direction: in, received from the cloud (GET); out, stored on it"
                        + " (acknowledged PUT)")
                .tags(cloud).tag(MetricNames.TAG_DIRECTION, direction).register(registry);
    }

    void record(CloudRequest r) {
        int op = r.operation().ordinal();
        if (r.outcome() == Outcome.ABANDONED) {
            abandoned.get(op).increment();
            return;
        }
        requests.get(op * OUTCOMES + r.outcome().ordinal()).increment();
        latency.get(op).record(r.latency());
        FailureKind kind = r.failureKind();
        if (kind != null) {
            errors.get(op * KINDS + kind.ordinal()).increment();
        }
        if (r.bytes() > 0) {
            (r.operation() == CloudOperation.PUT ? bytesOut : bytesIn).increment(r.bytes());
        }
    }

    void deleted(GcCause cause) {
        if (cause == GcCause.SWEEP) {
            sweepDeletions.increment();
        } else {
            gcDeletions.get(cause.ordinal()).increment();
        }
    }
}
