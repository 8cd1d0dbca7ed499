/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * Follows a scrub as it runs: the verdict on each key checked, and progress after each page of keys. Called on the
 * scrubbing thread; a listener that throws stops the scrub (its state file keeps the last completed page).
 */
public interface ScrubListener {
    /** Reports nothing. */
    ScrubListener NONE = new ScrubListener() {
    };

    /**
     * The verdict on one key checked (keys skipped by the listing digests are not reported). A run resumed from a
     * state file first reports again, per container, the keys not healthy that the stopped run had found before its
     * checkpoint (the first 1,000).
     */
    default void key(KeyHealth health) {
    }

    /** A page of keys of {@code container} is done; {@code report} is the running total. */
    default void progress(String container, ScrubReport report) {
    }
}
