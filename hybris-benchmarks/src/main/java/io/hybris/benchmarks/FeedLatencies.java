/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import java.util.Arrays;

/**
 * The latencies of one {@link FeedSide} over all its rounds, in milliseconds: per notification (every
 * subscriber's every change) the time from the start of the writer's call, and the time after the call returned
 * (clamped at 0: a subscriber may hear of a change before the writer's call returns); per change the writer's
 * call and the arrival at the last subscriber; the CPU time used. Percentiles by nearest rank.
 */
final class FeedLatencies {
    private double[] notify = new double[1024];
    private double[] afterReturn = new double[1024];
    private int notifications;
    private int clamped;
    private double[] writes = new double[256];
    private double[] lastArrivals = new double[256];
    private int writeCount;
    private long cpuNanos;
    private long agentCpuNanos;

    void notification(double fromStartMs, double afterReturnMs) {
        if (notifications == notify.length) {
            notify = Arrays.copyOf(notify, notifications * 2);
            afterReturn = Arrays.copyOf(afterReturn, notifications * 2);
        }
        notify[notifications] = fromStartMs;
        if (afterReturnMs < 0) {
            clamped++;
        }
        afterReturn[notifications++] = Math.max(0, afterReturnMs);
    }

    /**
     * One change: the writer's call took {@code callMs}, and the last subscriber to hear of it did so
     * {@code lastArrivalMs} after the call started.
     */
    void change(double callMs, double lastArrivalMs) {
        if (writeCount == writes.length) {
            writes = Arrays.copyOf(writes, writeCount * 2);
            lastArrivals = Arrays.copyOf(lastArrivals, writeCount * 2);
        }
        lastArrivals[writeCount] = lastArrivalMs;
        writes[writeCount++] = callMs;
    }

    /** CPU time the benchmark's processes (this JVM, the Consul agent) used during a round; the agent's part. */
    void cpu(long nanos, long agentNanos) {
        cpuNanos += nanos;
        agentCpuNanos += agentNanos;
    }

    /** CPU milliseconds per change (writer, every subscriber, the server). */
    double cpuPerChange() {
        return writeCount == 0 ? Double.NaN : cpuNanos / 1e6 / writeCount;
    }

    /** The Consul agent's part of {@link #cpuPerChange()} (0 on ZooKeeper, whose server runs in this JVM). */
    double agentCpuPerChange() {
        return writeCount == 0 ? Double.NaN : agentCpuNanos / 1e6 / writeCount;
    }

    int notifications() {
        return notifications;
    }

    int changes() {
        return writeCount;
    }

    /** How many notifications arrived before the writer's call returned. */
    int clamped() {
        return clamped;
    }

    /** The notification latency from the start of the writer's call, percentile {@code p} (0..100). */
    double notify(double p) {
        return percentile(notify, notifications, p);
    }

    double afterReturn(double p) {
        return percentile(afterReturn, notifications, p);
    }

    double writeCall(double p) {
        return percentile(writes, writeCount, p);
    }

    /** When the last subscriber heard of a change, from the start of the writer's call. */
    double lastArrival(double p) {
        return percentile(lastArrivals, writeCount, p);
    }

    private static double percentile(double[] values, int n, double p) {
        if (n == 0) {
            return Double.NaN;
        }
        double[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * n);
        return sorted[Math.max(0, Math.min(n - 1, rank - 1))];
    }
}
