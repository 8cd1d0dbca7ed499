/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.time.Duration;

/** The absolute deadline of one call, on the monotonic clock. Immutable. */
public final class Deadline {
    private final long deadlineNanos;
    private final Duration budget;

    private Deadline(long deadlineNanos, Duration budget) {
        this.deadlineNanos = deadlineNanos;
        this.budget = budget;
    }

    /** A deadline {@code budget} from now. */
    public static Deadline after(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos(), budget);
    }

    /** Nanoseconds left; zero or negative once expired. */
    public long remainingNanos() {
        return deadlineNanos - System.nanoTime();
    }

    /** Whether the deadline has passed. */
    public boolean expired() {
        return remainingNanos() <= 0;
    }

    /** The earlier of this deadline and {@code nanos} from now, as nanoseconds from now (never negative). */
    public long cap(long nanos) {
        return Math.max(0, Math.min(nanos, remainingNanos()));
    }

    /** The budget the deadline was created with. */
    public Duration budget() {
        return budget;
    }
}
