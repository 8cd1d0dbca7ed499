/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.hybris.benchmarks.LargeValuesBenchmark.*;

/** Throughputs (or latencies) of one series. */
final class ThroughputSeries {
    private final List<Double> values = new ArrayList<>();

    void add(double v) {
        values.add(v);
    }

    double last() {
        return values.get(values.size() - 1);
    }

    double percentile(double p) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    double median() {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    @Override
    public String toString() {
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return String.format(Locale.ROOT, "%.1f [%.1f - %.1f]", median(), min, max);
    }
}
