/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import org.slf4j.Logger;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs one kind of warning at most once per interval, saying how many were suppressed in between, so an outage
 * of a component that every request touches (the value cache) does not flood the log. Thread-safe.
 */
final class RateLimitedWarning {
    private final Logger log;
    private final long intervalNanos;
    private final AtomicLong nextAt = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    RateLimitedWarning(Logger log, long intervalNanos) {
        this.log = log;
        this.intervalNanos = intervalNanos;
    }

    /** Logs {@code message} (with {@code cause}'s message) unless one was logged within the interval. */
    void warn(String message, Throwable cause) {
        long now = System.nanoTime();
        long next = nextAt.get();
        if ((next != Long.MIN_VALUE && now - next < 0) || !nextAt.compareAndSet(next, now + intervalNanos)) {
            suppressed.incrementAndGet();
            return;
        }
        long dropped = suppressed.getAndSet(0);
        log.warn("{}{}{}", message, cause == null ? "" : ": " + cause,
                dropped == 0 ? "" : " (" + dropped + " similar warnings suppressed)");
    }
}
