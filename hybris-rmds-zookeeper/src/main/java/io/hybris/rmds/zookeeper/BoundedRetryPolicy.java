/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import org.apache.curator.RetryPolicy;
import org.apache.curator.RetrySleeper;
import org.apache.zookeeper.KeeperException;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Exponential backoff (50 ms doubling to at most 1 s) that stops once an operation has been retried for
 * {@code bound}, when the store call running on this thread has no time left for a backoff and another request
 * ({@link CallDeadline#allowsRetry}), or once the store is closed: with Curator's own wait for a connection (the
 * connection timeout) before the first attempt and ZooKeeper's request timeout on each attempt, a call against an
 * unreachable or unresponsive ensemble fails after roughly connection timeout + bound + request timeout instead of
 * hanging. Retried: Curator's default (connection loss, operation timeout, session moved or expired) and a request
 * that timed out ({@code REQUESTTIMEOUT}: ZooKeeper then drops the connection, so the retry goes out on a new one,
 * as after a connection loss). Sleeps through Curator's sleeper, never {@code Thread.sleep}; an interrupt ends the
 * retries and is kept. Each retry it allows is counted on the calling thread ({@link CallDeadline#retrying}), so a
 * conditional update can tell a conflict its own earlier send may have caused.
 */
final class BoundedRetryPolicy implements RetryPolicy {
    private static final long FIRST_SLEEP_MS = 50;
    private static final long MAX_SLEEP_MS = 1000;

    private final long boundMs;
    private final CallDeadline deadline;
    private final BooleanSupplier closed;

    BoundedRetryPolicy(Duration bound, CallDeadline deadline, BooleanSupplier closed) {
        this.boundMs = bound.toMillis();
        this.deadline = deadline;
        this.closed = closed;
    }

    @Override
    public boolean allowRetry(int retryCount, long elapsedTimeMs, RetrySleeper sleeper) {
        long remaining = boundMs - elapsedTimeMs;
        if (remaining <= 0 || closed.getAsBoolean()) {
            return false;
        }
        long sleep = Math.min(remaining, Math.min(MAX_SLEEP_MS, FIRST_SLEEP_MS << Math.min(retryCount, 10)));
        if (!deadline.allowsRetry(sleep)) {
            return false;
        }
        try {
            sleeper.sleepFor(sleep, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (closed.getAsBoolean()) {
            return false;
        }
        deadline.retrying();
        return true;
    }

    @Override
    public boolean allowRetry(Throwable exception) {
        return RetryPolicy.super.allowRetry(exception) || exception instanceof KeeperException ke
                && ke.code() == KeeperException.Code.REQUESTTIMEOUT;
    }

    @Override
    public String toString() {
        return "BoundedRetryPolicy[bound=" + boundMs + "ms]";
    }
}
