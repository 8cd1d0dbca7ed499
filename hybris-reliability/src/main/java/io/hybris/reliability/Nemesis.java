/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * One kind of fault the campaign injects while the workers run. The {@link NemesisRunner} calls {@link #step}
 * at random intervals between {@link #minPause()} and {@link #maxPause()}; a step injects a fault or undoes the
 * previous one, counting what it injected in the {@link Tally}. {@link #heal} undoes everything before the
 * quiescence checks.
 */
abstract class Nemesis {
    private final String name;
    private final Duration minPause;
    private final Duration maxPause;

    Nemesis(String name, Duration minPause, Duration maxPause) {
        this.name = name;
        this.minPause = minPause;
        this.maxPause = maxPause;
    }

    /** Short name for logs and the report. */
    final String name() {
        return name;
    }

    /** Shortest pause between steps. */
    final Duration minPause() {
        return minPause;
    }

    /** Longest pause between steps. */
    final Duration maxPause() {
        return maxPause;
    }

    /** Injects a fault, or undoes the current one. */
    abstract void step(SplittableRandom random) throws Exception;

    /** Undoes every fault still in place. */
    abstract void heal() throws Exception;
}
