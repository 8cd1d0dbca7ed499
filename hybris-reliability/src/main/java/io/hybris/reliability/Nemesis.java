package io.hybris.reliability;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * One kind of fault the campaign injects while the workers run. The {@link NemesisRunner} calls {@link #step}
 * at random intervals between {@link #minPause()} and {@link #maxPause()}; a step injects a fault or undoes the
 * previous one, counting what it injected in the {@link Tally}. {@link #heal} undoes everything before the
 * quiescence checks.
 */
interface Nemesis {
    /** Short name for logs and the report. */
    String name();

    /** Shortest pause between steps. */
    Duration minPause();

    /** Longest pause between steps. */
    Duration maxPause();

    /** Injects a fault, or undoes the current one. */
    void step(SplittableRandom random) throws Exception;

    /** Undoes every fault still in place. */
    void heal() throws Exception;
}
