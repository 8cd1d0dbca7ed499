/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.MetadataUnavailableException;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The pause after a commit lost the race for its container's change-log head to another client. The first retry
 * goes at once (re-reading the head already takes a round trip, and the winner has moved on); later ones wait a
 * random time ("full jitter") below a cap that doubles from {@value #BASE_MICROS} µs to {@value #MAX_MICROS} µs, so
 * contending clients spread out without all sleeping the same long pause. Stateless.
 */
final class HeadRaceBackoff {
    static final long BASE_MICROS = 250;
    static final long MAX_MICROS = 4_000;

    private HeadRaceBackoff() {
    }

    /** The longest pause after {@code lost} earlier losses in a row (0: none). */
    static long capMicros(int lost) {
        return lost == 0 ? 0 : Math.min(MAX_MICROS, BASE_MICROS << Math.min(lost - 1, 16));
    }

    /** Pauses before the retry that follows {@code lost} earlier losses in a row. */
    static void pause(int lost) {
        long cap = capMicros(lost);
        if (cap == 0) {
            return;
        }
        try {
            TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(cap));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataUnavailableException("update interrupted while retrying the change-log head; nothing"
                    + " was written", e);
        }
    }
}
