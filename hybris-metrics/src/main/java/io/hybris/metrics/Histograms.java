/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.micrometer.core.instrument.Timer;

import java.time.Duration;

/**
 * How every latency timer publishes its distribution: a percentile histogram whose buckets are bounded between
 * {@code min} and {@code max} (so each timer series has a fixed, small number of buckets), or none.
 */
record Histograms(boolean enabled, Duration min, Duration max) {

    /** The default: histograms from 1 ms to 60 s. */
    static final Histograms DEFAULT = new Histograms(true, Duration.ofMillis(1), Duration.ofSeconds(60));

    Timer.Builder apply(Timer.Builder timer) {
        return enabled ? timer.publishPercentileHistogram().minimumExpectedValue(min).maximumExpectedValue(max)
                : timer;
    }
}
