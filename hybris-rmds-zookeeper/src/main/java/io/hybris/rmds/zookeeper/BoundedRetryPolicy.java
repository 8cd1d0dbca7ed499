/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import org.apache.curator.RetryPolicy;
import org.apache.curator.RetrySleeper;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Exponential backoff (50 ms doubling to at most 1 s) that stops once an operation has been retried for
 * {@code bound}: with Curator's own wait for a connection (the connection timeout) before the first attempt, a
 * call against an unreachable ensemble fails after roughly connection timeout + bound instead of hanging. Which
 * failures are retried is Curator's default (connection loss, operation timeout, session moved or expired).
 * Sleeps through Curator's sleeper, never {@code Thread.sleep}; an interrupt ends the retries and is kept.
 */
final class BoundedRetryPolicy implements RetryPolicy {
    private static final long FIRST_SLEEP_MS = 50;
    private static final long MAX_SLEEP_MS = 1000;

    private final long boundMs;

    BoundedRetryPolicy(Duration bound) {
        this.boundMs = bound.toMillis();
    }

    @Override
    public boolean allowRetry(int retryCount, long elapsedTimeMs, RetrySleeper sleeper) {
        long remaining = boundMs - elapsedTimeMs;
        if (remaining <= 0) {
            return false;
        }
        long backoff = Math.min(MAX_SLEEP_MS, FIRST_SLEEP_MS << Math.min(retryCount, 10));
        try {
            sleeper.sleepFor(Math.min(backoff, remaining), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return true;
    }

    @Override
    public String toString() {
        return "BoundedRetryPolicy[bound=" + boundMs + "ms]";
    }
}
