/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.Arrays;
import java.util.List;

/**
 * The common-case read of a guessed version, its first request launched before the GET's metadata read
 * ({@code hybris.get.speculate}, docs/protocol.md "Speculative reads"): the guess is the version this client last
 * read or committed for the key. When the metadata read finds that very version, the GET runs the rest of this read
 * (its bytes are verified against the guess's hash, equal to the found version's: one version, one value);
 * otherwise the read is abandoned and the GET reads the version found, as without speculation. What the GET returns
 * never depends on the guess: only when its cloud request starts. The caller's own thread runs the race, as for any
 * read: a speculative read costs no extra thread. Single use, by one caller; not thread-safe.
 */
final class SpeculativeRead {
    private final Metadata guess;
    private final Layout layout;
    private final PendingRead pending;
    private boolean open = true;

    private SpeculativeRead(Metadata guess, Layout layout, PendingRead pending) {
        this.guess = guess;
        this.layout = layout;
        this.pending = pending;
    }

    /**
     * Starts reading {@code guess}, the version this client saw last, stored under {@code objectKey}; null if its
     * layout cannot start a read ahead (erasure coding).
     */
    static SpeculativeRead start(Layouts layouts, String objectKey, Metadata guess, Deadline d) {
        Layout layout = layouts.forRead(guess);
        PendingRead pending = layout.startRead(objectKey, guess, d);
        return pending == null ? null : new SpeculativeRead(guess, layout, pending);
    }

    /** Whether {@code found} (a live version) is the guessed one: same timestamp, same hash. */
    boolean matches(Current found) {
        return sameVersion(guess, found.meta());
    }

    /** Whether {@code found} is the version {@code guess} names: same timestamp, same hash. */
    static boolean sameVersion(Metadata guess, Metadata found) {
        return found.timestamp().equals(guess.timestamp()) && Arrays.equals(found.sha256(), guess.sha256());
    }

    /**
     * Runs the rest of the read (call only when {@link #matches}): the verified stored bytes, or null when the
     * version's clouds cannot provide them (the caller then runs the worst case, as after any common-case read).
     */
    byte[] finish(Deadline d, List<Throwable> failures) {
        open = false;
        return layout.finishRead(pending, d, failures);
    }

    /** Abandons the read if it was not finished (its requests still running are abandoned); else a no-op. */
    void cancel() {
        if (open) {
            open = false;
            pending.abandon();
        }
    }
}
