/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A {@link Clock} that tests move by hand, e.g. to age objects past the garbage-collection grace period without
 * waiting. Starts at the system time; thread-safe.
 */
public final class MutableClock extends Clock {
    private volatile Instant now;
    private volatile Duration advanced = Duration.ZERO;

    /** A clock at the current system time. */
    public MutableClock() {
        this(Instant.now());
    }

    /** A clock at {@code start}. */
    public MutableClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock forward. */
    public synchronized void advance(Duration d) {
        now = now.plus(d);
        advanced = advanced.plus(d);
    }

    /** How far {@link #advance} has moved this clock in all (zero for a new clock). */
    public Duration advanced() {
        return advanced;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
