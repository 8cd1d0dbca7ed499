/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import java.time.Duration;
import java.util.Locale;

/** Human formats of byte counts, rates and durations. */
final class Sizes {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private Sizes() {
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        double v = n;
        int u = 0;
        while (v >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, UNITS[u]);
    }

    static String rate(double bytesPerSecond) {
        return bytes((long) bytesPerSecond) + "/s";
    }

    /** {@code 4s}, {@code 2m05s}, {@code 1h02m}. */
    static String duration(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    /** Milliseconds with one decimal, for latency tables. */
    static String millis(Duration d) {
        return String.format(Locale.ROOT, "%.1f ms", d.toNanos() / 1e6);
    }

    /** Milliseconds as a number with three decimals, for JSON. */
    static double millisValue(Duration d) {
        return Math.round(d.toNanos() / 1e3) / 1e3;
    }
}
