/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import software.amazon.awssdk.http.Abortable;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Ends the body of a response that is still being read when its attempt's {@code request-timeout} runs out. The SDK's
 * attempt timeout stops at the response head (a streamed body is the caller's to read) and the socket timeout only
 * bounds a pause, so without this a body that trickles in would be read for as long as the server cares to take.
 * One timer thread per store, which exits when idle; {@link #close()} stops it. Thread-safe.
 */
final class BodyDeadlines implements AutoCloseable {
    private final long limitNanos;
    private final ScheduledThreadPoolExecutor timer;

    BodyDeadlines(String cloudId, Duration limit) {
        this.limitNanos = limit.toNanos();
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "hybris-s3-" + cloudId + "-deadline");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(30, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
    }

    /** Aborts {@code body} once the attempt that started at {@code attemptStartNanos} has run out of time. */
    Deadline start(Abortable body, long attemptStartNanos) {
        Deadline deadline = new Deadline(body);
        long delay = attemptStartNanos + limitNanos - System.nanoTime();
        if (delay <= 0) {
            deadline.expire();
            return deadline;
        }
        try {
            deadline.future = timer.schedule(deadline::expire, delay, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // the store is closing: close() aborts what is still running
        }
        return deadline;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** One body's deadline; close it when the body has been read. */
    static final class Deadline implements AutoCloseable {
        private final Abortable body;
        private volatile boolean expired;
        private volatile ScheduledFuture<?> future;

        private Deadline(Abortable body) {
            this.body = body;
        }

        private void expire() {
            expired = true;
            try {
                body.abort();
            } catch (RuntimeException ignored) {
                // the connection is being thrown away; the reader fails either way
            }
        }

        /** Whether the time ran out (and the body was aborted). */
        boolean expired() {
            return expired;
        }

        @Override
        public void close() {
            ScheduledFuture<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
        }
    }
}
