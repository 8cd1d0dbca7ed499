/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Judges whether a multipart upload's {@code completing} mark was left by a complete that cannot still run (its
 * gateway stopped), on this gateway's monotonic clock only: a mark is stale once this gateway has seen the record
 * unchanged (the same version) for the stale period. The time the marking gateway wrote into the record is not
 * trusted: a gateway whose wall clock runs ahead of the marker's by the stale period would take over a complete
 * still running, and two completes naming different parts would store two manifests under one version's name.
 *
 * <p>A record is remembered from the first complete that finds it marked until it is forgotten (the upload ended)
 * or, once more than {@link #PRUNE_ABOVE} are remembered, the stale period has passed twice since it was first
 * seen. Thread-safe.
 */
final class CompletionSightings {
    /** How many remembered records start pruning. */
    static final int PRUNE_ABOVE = 1024;

    private record Sighting(String version, long since) {
    }

    private final LongSupplier nanoTime;
    private final long staleNanos;
    private final Map<String, Sighting> seen = new ConcurrentHashMap<>();

    /**
     * @param stale    how long a record must be seen unchanged before its mark is stale
     * @param nanoTime the monotonic clock ({@code System::nanoTime}; tests move their own)
     */
    CompletionSightings(Duration stale, LongSupplier nanoTime) {
        this.staleNanos = stale.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * Whether the record of upload {@code id}, marked completing at record version {@code version}, has been seen at
     * that version for the stale period; the first sighting of a version starts its period.
     */
    boolean stale(String id, String version) {
        long now = nanoTime.getAsLong();
        if (seen.size() > PRUNE_ABOVE) {
            seen.values().removeIf(s -> now - s.since() > 2 * staleNanos);
        }
        Sighting s = seen.compute(id, (k, old) -> old != null && old.version().equals(version) ? old
                : new Sighting(version, now));
        return now - s.since() >= staleNanos;
    }

    /** Forgets upload {@code id} (it was completed or aborted). */
    void forget(String id) {
        seen.remove(id);
    }
}
