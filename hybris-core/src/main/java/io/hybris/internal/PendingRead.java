/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The state of one common-case read race of {@link CloudCalls}, from {@link CloudCalls#startRead} (its first requests
 * launched) to {@link CloudCalls#finishRead} (the rest of the race) or {@link #abandon()}. Owned by one caller; not
 * thread-safe (the requests report through the race's queue).
 */
final class PendingRead {
    private final CloudCalls calls;
    final Race<byte[]> race;
    final String objectKey;
    final List<String> candidates;
    final List<String> ranked;
    final int needed;
    final long size;
    final Function<String, CloudCalls.Expected> expected;
    final String shortfall;
    final Map<String, byte[]> got = new HashMap<>();
    final Map<String, Long> launchedAt = new HashMap<>();
    /** Requests launched. */
    int next;
    /** Their completions taken from the race (a finished request may still be queued). */
    int answered;
    /** When the running timer expires (nanoTime). */
    long timerAt;
    /** Whether the running timer is a hedge. */
    boolean hedging;

    PendingRead(CloudCalls calls, Race<byte[]> race, String objectKey, List<String> candidates, List<String> ranked,
                int needed, long size, Function<String, CloudCalls.Expected> expected, String shortfall) {
        this.calls = calls;
        this.race = race;
        this.objectKey = objectKey;
        this.candidates = candidates;
        this.ranked = ranked;
        this.needed = needed;
        this.size = size;
        this.expected = expected;
        this.shortfall = shortfall;
    }

    /** Gives the read up: its running requests are abandoned (no penalty for their clouds). */
    void abandon() {
        calls.abandonRead(this);
    }
}
