/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.hybris.Hybris;
import io.hybris.HybrisListener;
import io.hybris.cost.CloudUsage;
import io.hybris.cost.RequestClass;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import static io.hybris.metrics.MetricNames.tag;

/**
 * A {@link HybrisListener} that turns a client's events into Micrometer meters: client calls, cloud requests
 * (count, latency, errors by kind, bytes in and out, per cloud), metadata-store calls, CAS conflicts, worst-case
 * GETs, garbage-collection and sweep deletions, value-cache lookups. docs/metrics.md lists every meter with its
 * unit and tags. Meters are registered on first use, so only tag combinations that happen become series.
 *
 * <pre>{@code
 * MeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * Hybris hybris = Hybris.open(Hybris.builder()
 *         ...
 *         .listener(HybrisListener.of(new HybrisMetrics(registry), myOwnListener))
 *         .build());
 * }</pre>
 *
 * <p>One instance per client; to tell several clients in one registry apart, give each its own tags
 * ({@link #HybrisMetrics(MeterRegistry, Iterable)}, e.g. {@code client=<id>}). Thread-safe; every event costs a
 * few array reads and counter increments.
 */
public final class HybrisMetrics implements HybrisListener {
    private static final int OPERATION_OUTCOMES = OperationOutcome.values().length;
    private static final int METADATA_OUTCOMES = MetadataOutcome.values().length;
    private static final String BILLABLE_BYTES_HELP = "Billable payload bytes by direction: in, returned by the cloud"
            + " (egress); out, stored on it";

    private final MeterRegistry registry;
    private final Tags tags;
    private final Histograms histograms;
    private final ConcurrentMap<String, CloudMeters> clouds = new ConcurrentHashMap<>();
    private final LazyMeters<Timer> operations;
    private final LazyMeters<Timer> metadataCalls;
    private final LazyMeters<Counter> casConflicts;
    private final LazyMeters<Counter> cacheRequests;
    private final Counter worstCaseGets;
    private final Counter getRestarts;

    /** Meters on {@code registry}, with latency histograms from 1 ms to 60 s. */
    public HybrisMetrics(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /** Meters on {@code registry}, each also carrying {@code tags} (for instance the client's id). */
    public HybrisMetrics(MeterRegistry registry, Iterable<Tag> tags) {
        this(registry, tags, Histograms.DEFAULT);
    }

    private HybrisMetrics(MeterRegistry registry, Iterable<Tag> tags, Histograms histograms) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
        this.histograms = histograms;
        Operation[] ops = Operation.values();
        OperationOutcome[] outcomes = OperationOutcome.values();
        int nOutcomes = outcomes.length;
        operations = new LazyMeters<>(ops.length * nOutcomes, i -> histograms.apply(
                        Timer.builder(MetricNames.OPERATIONS).description("Client calls, by operation and outcome"))
                .tags(this.tags).tag(MetricNames.TAG_OP, tag(ops[i / nOutcomes]))
                .tag(MetricNames.TAG_OUTCOME, tag(outcomes[i % nOutcomes]))
                .register(registry));
        MetadataOperation[] mops = MetadataOperation.values();
        MetadataOutcome[] mouts = MetadataOutcome.values();
        int nMouts = mouts.length;
        metadataCalls = new LazyMeters<>(mops.length * nMouts, i -> histograms.apply(
                        Timer.builder(MetricNames.METADATA_CALLS).description("Metadata-store calls"))
                .tags(this.tags).tag(MetricNames.TAG_OP, tag(mops[i / nMouts]))
                .tag(MetricNames.TAG_OUTCOME, tag(mouts[i % nMouts]))
                .register(registry));
        ConflictResolution[] resolutions = ConflictResolution.values();
        casConflicts = new LazyMeters<>(resolutions.length, i -> Counter.builder(MetricNames.CAS_CONFLICTS)
                .description("Conditional updates that met a version conflict, by what the commit rule did")
                .tags(this.tags).tag(MetricNames.TAG_RESOLUTION, tag(resolutions[i]))
                .register(registry));
        CacheResult[] results = CacheResult.values();
        cacheRequests = new LazyMeters<>(results.length, i -> Counter.builder(MetricNames.CACHE_REQUESTS)
                .description("Value-cache lookups")
                .tags(this.tags).tag(MetricNames.TAG_RESULT, tag(results[i]))
                .register(registry));
        worstCaseGets = Counter.builder(MetricNames.WORST_CASE_GETS)
                .description("GETs that fell back to the worst-case protocol").tags(this.tags).register(registry);
        getRestarts = Counter.builder(MetricNames.GET_RESTARTS)
                .description("Worst-case GETs restarted by a metadata change").tags(this.tags).register(registry);
    }

    /** The same meters without latency histograms (only count, total and max per timer). */
    public HybrisMetrics withoutHistograms() {
        return new HybrisMetrics(registry, tags, new Histograms(false, Duration.ZERO, Duration.ZERO));
    }

    /**
     * Also exports {@code hybris}'s billable counters ({@link Hybris#cloudUsage()}) — the counts its cost report
     * prices — as {@link MetricNames#BILLABLE_REQUESTS} by cloud and price class and {@link MetricNames#BILLABLE_BYTES}
     * by cloud and direction. Call once per client, after opening it with these metrics as its listener; binding a
     * client replaces the series an earlier client with the same tags bound (closed and reopened on one registry),
     * which then restart from the new client's counts.
     *
     * @return this
     */
    public HybrisMetrics bindUsage(Hybris hybris) {
        Objects.requireNonNull(hybris, "hybris");
        for (String cloud : hybris.cloudUsage().keySet()) {
            Tags t = tags.and(MetricNames.TAG_CLOUD, cloud);
            for (RequestClass c : RequestClass.values()) {
                Tags id = t.and(MetricNames.TAG_CLASS, tag(c));
                unbind(MetricNames.BILLABLE_REQUESTS, id);
                FunctionCounter.builder(MetricNames.BILLABLE_REQUESTS, hybris, h -> usage(h, cloud).requests(c))
                        .description("Cloud requests by price class, as the cost report prices them")
                        .tags(id).register(registry);
            }
            Tags in = t.and(MetricNames.TAG_DIRECTION, "in");
            Tags out = t.and(MetricNames.TAG_DIRECTION, "out");
            unbind(MetricNames.BILLABLE_BYTES, in);
            unbind(MetricNames.BILLABLE_BYTES, out);
            FunctionCounter.builder(MetricNames.BILLABLE_BYTES, hybris, h -> usage(h, cloud).bytesDownloaded())
                    .baseUnit("bytes").description(BILLABLE_BYTES_HELP)
                    .tags(in).register(registry);
            FunctionCounter.builder(MetricNames.BILLABLE_BYTES, hybris, h -> usage(h, cloud).bytesUploaded())
                    .baseUnit("bytes").description(BILLABLE_BYTES_HELP)
                    .tags(out).register(registry);
        }
        return this;
    }

    /**
     * Removes the function counter {@code name} with exactly {@code tags}, if any: the registry would otherwise keep
     * the one bound to an earlier client (closed, then reopened on the same registry) and go on reading that client's
     * frozen counts, ignoring the new registration.
     */
    private void unbind(String name, Tags tags) {
        registry.removeByPreFilterId(new Meter.Id(name, tags, null, null, Meter.Type.COUNTER));
    }

    private static CloudUsage usage(Hybris h, String cloud) {
        return h.cloudUsage().getOrDefault(cloud, CloudUsage.NONE);
    }

    /** The registry the meters are on. */
    public MeterRegistry registry() {
        return registry;
    }

    private CloudMeters cloud(String cloudId) {
        CloudMeters m = clouds.get(cloudId);
        return m != null ? m : clouds.computeIfAbsent(cloudId, id -> new CloudMeters(registry, tags, id, histograms));
    }

    @Override
    public void cloudRequest(CloudRequest request) {
        cloud(request.cloudId()).record(request);
    }

    @Override
    public void operation(Operation operation, String container, OperationOutcome outcome, Duration duration) {
        operations.get(operation.ordinal() * OPERATION_OUTCOMES + outcome.ordinal()).record(duration);
    }

    @Override
    public void metadataCall(MetadataOperation operation, MetadataOutcome outcome, Duration duration) {
        metadataCalls.get(operation.ordinal() * METADATA_OUTCOMES + outcome.ordinal()).record(duration);
    }

    @Override
    public void casConflict(String container, int keys, ConflictResolution resolution) {
        casConflicts.get(resolution.ordinal()).increment();
    }

    @Override
    public void cacheLookup(CacheResult result) {
        cacheRequests.get(result.ordinal()).increment();
    }

    @Override
    public void worstCaseGet(String container, String key) {
        worstCaseGets.increment();
    }

    @Override
    public void getRestarted(String container, String key) {
        getRestarts.increment();
    }

    @Override
    public void garbageCollected(String cloudId, String objectKey, GcCause cause) {
        cloud(cloudId).deleted(cause);
    }
}
