/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

/** Nearest-rank percentiles of latency samples, as every benchmark table here reports them. */
final class Percentiles {
    private Percentiles() {
    }

    /** The {@code p}-th percentile (0-100, nearest rank) of {@code sorted} (ascending); NaN when empty. */
    static double of(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
