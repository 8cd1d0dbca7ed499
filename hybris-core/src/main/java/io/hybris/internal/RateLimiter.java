/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;

import java.util.concurrent.TimeUnit;

/**
 * Paces a background task to at most {@code requestsPerSecond} cloud requests and {@code bytesPerSecond} bytes (0:
 * unlimited), by making the caller wait before each request until its share of time has come. Thread-safe.
 */
final class RateLimiter {
    private final double nanosPerRequest;
    private final double nanosPerByte;
    private long next = System.nanoTime();

    RateLimiter(double requestsPerSecond, long bytesPerSecond) {
        this.nanosPerRequest = requestsPerSecond <= 0 ? 0 : 1e9 / requestsPerSecond;
        this.nanosPerByte = bytesPerSecond <= 0 ? 0 : 1e9 / bytesPerSecond;
    }

    /** Waits for the right to make one request moving about {@code bytes} bytes. */
    void acquire(long bytes) {
        long cost = (long) (nanosPerRequest + nanosPerByte * bytes);
        if (cost <= 0) {
            return;
        }
        long wait;
        synchronized (this) {
            long now = System.nanoTime();
            long start = Math.max(now, next);
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
