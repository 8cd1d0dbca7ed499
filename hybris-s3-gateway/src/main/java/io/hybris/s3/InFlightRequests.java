/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.time.Duration;

/**
 * The requests a gateway is handling, for a graceful stop ({@link S3Gateway#stop(Duration)}): once it is stopping,
 * no request is admitted (each is answered 503 ServiceUnavailable, which S3 clients retry) and the stop waits until
 * the admitted ones have answered. Thread-safe.
 */
final class InFlightRequests {
    private int inFlight;
    private boolean stopping;

    /** Admits a request; false once the gateway is stopping. An admitted request must {@link #exit()}. */
    synchronized boolean enter() {
        if (stopping) {
            return false;
        }
        inFlight++;
        return true;
    }

    /** An admitted request has answered (or failed). */
    synchronized void exit() {
        inFlight--;
        if (inFlight == 0) {
            notifyAll();
        }
    }

    /**
     * Admits no more requests and waits at most {@code max} until every admitted one has answered; true if they all
     * have. An interrupt ends the wait early (the flag stays set).
     */
    synchronized boolean drain(Duration max) {
        stopping = true;
        long end = System.nanoTime() + max.toNanos();
        try {
            while (inFlight > 0) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                wait(Math.max(1, left / 1_000_000));
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return inFlight == 0;
        }
    }
}
