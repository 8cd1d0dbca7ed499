/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Exponential backoff (50 ms doubling to at most 1 s) for transient Consul failures (connection refused or
 * reset, timeouts, HTTP 5xx such as "No cluster leader", HTTP 429) that stops once a call has been retrying for
 * {@code bound}: a call against an unreachable agent or a cluster without a leader fails after about the bound
 * plus one request's timeout instead of hanging. Sleeps through an injected {@link Sleeper}, never a bare
 * {@code Thread.sleep}; an interrupt ends the retries and is kept. Immutable and thread-safe.
 */
final class BoundedRetry {
    private static final long FIRST_SLEEP_MS = 50;
    private static final long MAX_SLEEP_MS = 1000;

    /** Waits between attempts; the default parks the calling thread and reacts to interrupts. */
    @FunctionalInterface
    interface Sleeper {
        /** Sleeps for {@code millis}, or throws if the thread is interrupted. */
        void sleep(long millis) throws InterruptedException;

        /** The real sleeper. */
        Sleeper SYSTEM = TimeUnit.MILLISECONDS::sleep;
    }

    private final long boundNanos;
    private final Sleeper sleeper;

    BoundedRetry(Duration bound, Sleeper sleeper) {
        this.boundNanos = bound.toNanos();
        this.sleeper = sleeper;
    }

    /** The delay before retry number {@code retryCount + 1}. */
    static long backoffMillis(int retryCount) {
        return Math.min(MAX_SLEEP_MS, FIRST_SLEEP_MS << Math.min(retryCount, 10));
    }

    /**
     * Sleeps before another attempt and returns true, or returns false if the bound is spent.
     *
     * @param retryCount   how many retries have been made so far
     * @param elapsedNanos how long the call has been running
     * @throws InterruptedException if interrupted while sleeping (the caller restores the flag)
     */
    boolean allowRetry(int retryCount, long elapsedNanos) throws InterruptedException {
        return allowRetryWithin(retryCount, boundNanos - elapsedNanos);
    }

    /**
     * Sleeps before another attempt and returns true, or returns false if no time is left.
     *
     * @param retryCount     how many retries have been made so far
     * @param remainingNanos how much longer the call may retry
     * @throws InterruptedException if interrupted while sleeping (the caller restores the flag)
     */
    boolean allowRetryWithin(int retryCount, long remainingNanos) throws InterruptedException {
        long remainingMs = TimeUnit.NANOSECONDS.toMillis(remainingNanos);
        if (remainingMs <= 0) {
            return false;
        }
        sleeper.sleep(Math.min(backoffMillis(retryCount), remainingMs));
        return true;
    }

    @Override
    public String toString() {
        return "BoundedRetry[bound=" + TimeUnit.NANOSECONDS.toMillis(boundNanos) + "ms]";
    }
}
