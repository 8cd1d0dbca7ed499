/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.MetadataUnavailableException;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The pause after a batch of commits lost the race for its container's change-log head to another client: a
 * random time below a cap ("full jitter") that doubles from {@value #FIRST_CAP_MICROS} µs to
 * {@value #MAX_CAP_MICROS} µs with each loss in a row, so contending clients spread out without any of them
 * sleeping long. Measured against the earlier pause (half to all of a cap doubling from 0.5 ms to 16 ms) and against
 * no pause, with 2-8 clients sharing one container: no pause loses most at low contention, the long pauses make
 * the p99 at high contention (docs/benchmarks.md, Scalability). Stateless.
 */
final class HeadRaceBackoff {
    /** The cap of the first pause. */
    static final long FIRST_CAP_MICROS = 500;
    /** The largest cap. */
    static final long MAX_CAP_MICROS = 4_000;

    private HeadRaceBackoff() {
    }

    /** The longest pause after {@code lost} earlier losses in a row (0 for the first loss). */
    static long capMicros(int lost) {
        return Math.min(MAX_CAP_MICROS, FIRST_CAP_MICROS << Math.min(lost, 16));
    }

    /** Pauses before the retry that follows {@code lost} earlier losses in a row. */
    static void pause(int lost) {
        try {
            TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(capMicros(lost)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataUnavailableException("update interrupted while retrying the change-log head; nothing"
                    + " was written", e);
        }
    }
}
