/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How often the version a GET could guess (the one this client saw last) was the version its metadata read found,
 * over this client's recent GETs: a moving average in which each GET weighs {@code 1/16}. A speculative read
 * ({@link SpeculativeRead}) starts only while at least two thirds of the guesses were right: a right guess hides the
 * metadata read's round trip, a wrong one costs an aborted cloud request, which measured more than the round trip
 * it would have saved (docs/benchmarks.md). Guesses are scored whether or not a read was started, so a client
 * that stopped speculating starts again once its guesses hit again (18 right ones in a row from none; 7 wrong ones in a row from all right stop it). A
 * client starts out speculating. Thread-safe; one per client.
 */
final class GuessAccuracy {
    /** A rate of one, in the fixed point the average is kept in. */
    static final int ONE = 1 << 16;
    /** The rate at or above which guessing pays. */
    static final int WORTH_GUESSING = ONE * 2 / 3;
    /** Each GET weighs {@code 1 / 2^SHIFT}. */
    private static final int SHIFT = 4;

    private final AtomicInteger rate = new AtomicInteger(ONE);

    /** Whether recent guesses were right often enough to start reading the next one early. */
    boolean worthGuessing() {
        return rate.get() >= WORTH_GUESSING;
    }

    /** Scores one guess. */
    void record(boolean right) {
        int sample = right ? ONE : 0;
        rate.updateAndGet(r -> r + ((sample - r) >> SHIFT));
    }

    /** The current rate, of {@link #ONE}. */
    int rate() {
        return rate.get();
    }
}
