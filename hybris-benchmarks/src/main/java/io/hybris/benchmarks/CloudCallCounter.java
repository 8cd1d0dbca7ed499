/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.HybrisListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static io.hybris.benchmarks.LargeValuesBenchmark.*;

/** Counts Hybris's successful cloud PUTs and GETs per cloud. */
final class CloudCallCounter implements HybrisListener {
    final Map<String, AtomicLong> puts = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> gets = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> otherOutcomes = new ConcurrentHashMap<>();
    final List<Double> getMs = java.util.Collections.synchronizedList(new ArrayList<>());
    final List<Double> putMs = java.util.Collections.synchronizedList(new ArrayList<>());
    volatile double lastManifestGetMs;
    volatile double lastChunkGetMs;
    volatile String lastChunkCloud;

    void reset() {
        puts.clear();
        gets.clear();
        otherOutcomes.clear();
        getMs.clear();
        putMs.clear();
    }

    /** Per-cloud counts, other outcomes and the median request time of the cloud GETs and PUTs since reset. */
    String diagnostics() {
        ThroughputSeries g = new ThroughputSeries(), p = new ThroughputSeries();
        new ArrayList<>(getMs).forEach(g::add);
        new ArrayList<>(putMs).forEach(p::add);
        return String.format(Locale.ROOT, "GETs %s, PUTs %s, other outcomes %s; cloud request ms: GET %s, PUT %s",
                new java.util.TreeMap<>(gets), new java.util.TreeMap<>(puts), new java.util.TreeMap<>(otherOutcomes),
                getMs.isEmpty() ? "-" : g, putMs.isEmpty() ? "-" : p);
    }

    @Override
    public void cloudOperation(String cloudId, CloudOperation operation, String objectKey, Outcome outcome,
                               Duration latency) {
        if (outcome != Outcome.OK) {
            otherOutcomes.computeIfAbsent(cloudId + " " + operation + " " + outcome, k -> new AtomicLong())
                    .incrementAndGet();
            return;
        }
        if (operation == CloudOperation.PUT) {
            puts.computeIfAbsent(cloudId, k -> new AtomicLong()).incrementAndGet();
            putMs.add(latency.toNanos() / 1e6);
        } else if (operation == CloudOperation.GET) {
            gets.computeIfAbsent(cloudId, k -> new AtomicLong()).incrementAndGet();
            getMs.add(latency.toNanos() / 1e6);
            if (objectKey.contains("#c")) {
                lastChunkGetMs = latency.toNanos() / 1e6;
                lastChunkCloud = cloudId;
            } else {
                lastManifestGetMs = latency.toNanos() / 1e6;
            }
        }
    }

    String describe() {
        return new java.util.TreeMap<>(puts).toString();
    }

    String describeGets() {
        return new java.util.TreeMap<>(gets).toString();
    }
}
