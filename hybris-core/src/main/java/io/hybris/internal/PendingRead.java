/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.ArrayDeque;
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
    /** When {@link CloudCalls#startRead} launched its first requests (nanoTime). */
    long startedAt;
    /** When the running timer expires (nanoTime). */
    long timerAt;
    /** Whether the running timer is a hedge. */
    boolean hedging;
    /**
     * The race of the requests run on I/O threads, created by the first one: a read answered on the caller's thread
     * (the usual read of a cloud that bounds its calls) needs none.
     */
    private Race<byte[]> race;
    /** Completions of requests run on the caller's thread before any race existed, not yet taken. */
    private ArrayDeque<Race.Done<byte[]>> answeredHere;

    PendingRead(CloudCalls calls, String objectKey, List<String> candidates, List<String> ranked, int needed,
                long size, Function<String, CloudCalls.Expected> expected, String shortfall) {
        this.calls = calls;
        this.objectKey = objectKey;
        this.candidates = candidates;
        this.ranked = ranked;
        this.needed = needed;
        this.size = size;
        this.expected = expected;
        this.shortfall = shortfall;
    }

    /**
     * Counts the running timer and the running requests' ages from {@code now}, as if the race had started then: for
     * a read whose answers waited for their hash (a chunk requested alongside its manifest), whose wait is not the
     * clouds'. Without it, a manifest slower than the chunk's timer would expire the timer the moment the read is
     * taken over, before the answer waiting for the hash is posted: a duplicate request, and a penalty for a cloud
     * that answered in time.
     */
    void restartClock(long now) {
        long shift = now - startedAt;
        timerAt += shift;
        launchedAt.replaceAll((cloud, at) -> at + shift);
        startedAt = now;
    }

    /** The race, created now if no request needed it yet. */
    Race<byte[]> race() {
        if (race == null) {
            race = calls.newReadRace();
        }
        return race;
    }

    /** Whether a race exists: then every request, on whichever thread, reports through it. */
    boolean raced() {
        return race != null;
    }

    /** Queues the completion of a request run on the caller's thread without a race. */
    void answeredHere(Race.Done<byte[]> done) {
        if (answeredHere == null) {
            answeredHere = new ArrayDeque<>(2);
        }
        answeredHere.add(done);
    }

    /** The next completion: one answered on the caller's thread first, else the race's within {@code nanos}. */
    Object poll(long nanos) throws InterruptedException {
        if (answeredHere != null && !answeredHere.isEmpty()) {
            return answeredHere.poll();
        }
        return race().poll(nanos);
    }

    /** The clouds whose requests still run (on I/O threads). */
    List<String> runningClouds() {
        return race == null ? List.of() : race.runningClouds();
    }

    /** Gives the read up: its running requests are abandoned (no penalty for their clouds). */
    void abandon() {
        calls.abandonRead(this);
    }
}
