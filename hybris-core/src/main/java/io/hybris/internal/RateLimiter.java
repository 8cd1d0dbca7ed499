/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;

import java.util.concurrent.TimeUnit;

/**
 * Paces a background task to at most {@code requestsPerSecond} cloud requests and {@code bytesPerSecond} bytes (0:
 * unlimited), by making the caller wait before each request until its share of time has come. A share beyond
 * {@link #MAX_SHARE_NANOS} counts as that much: a due time past what a {@code long} of nanoseconds holds used to
 * overflow into the past, and every later request went unpaced. Thread-safe.
 */
final class RateLimiter {
    /** The most one request's share of time counts for (about 36 years; a sane limit never comes near). */
    static final long MAX_SHARE_NANOS = Long.MAX_VALUE / 8;

    private final double nanosPerRequest;
    private final double nanosPerByte;
    private long next = System.nanoTime();

    RateLimiter(double requestsPerSecond, long bytesPerSecond) {
        this.nanosPerRequest = requestsPerSecond <= 0 ? 0 : 1e9 / requestsPerSecond;
        this.nanosPerByte = bytesPerSecond <= 0 ? 0 : 1e9 / bytesPerSecond;
    }

    /** Waits for the right to make one request moving about {@code bytes} bytes. */
    void acquire(long bytes) {
        double share = nanosPerRequest + nanosPerByte * bytes;
        long cost = share >= MAX_SHARE_NANOS ? MAX_SHARE_NANOS : (long) share;
        if (cost <= 0) {
            return;
        }
        long wait;
        synchronized (this) {
            long now = System.nanoTime();
            long start = next - now > 0 ? next : now; // compared by difference, as System.nanoTime asks
            next = start + cost;
            wait = start - now;
        }
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CallInterruptedException("scrub interrupted while pacing its requests", false, e);
            }
        }
    }
}
