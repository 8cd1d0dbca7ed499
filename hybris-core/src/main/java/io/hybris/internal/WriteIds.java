/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out the write ids of one client's calls (see {@link Timestamp}): consecutive numbers from a random
 * start, so two calls of one client never share one, and a client restarted under the same configured id starts
 * elsewhere (a write of the previous process may still be in flight). The start lies in [2^21, 2^27), so a
 * write id takes exactly four bytes in metadata for at least the first 2^27 writes of an instance — a fixed
 * size that tests can pin. Thread-safe.
 */
public final class WriteIds {
    private static final int START_MIN = 1 << 21;
    private static final int START_MAX = 1 << 27;

    private final AtomicLong next;

    /** Write ids from a random start. */
    public WriteIds() {
        this(START_MIN + new SecureRandom().nextInt(START_MAX - START_MIN));
    }

    /** Write ids from {@code start} (tests). */
    public WriteIds(long start) {
        if (start < 0) {
            throw new IllegalArgumentException("start must be >= 0: " + start);
        }
        this.next = new AtomicLong(start);
    }

    /** A write id no other call of this instance has. */
    public long next() {
        return next.getAndIncrement();
    }
}
