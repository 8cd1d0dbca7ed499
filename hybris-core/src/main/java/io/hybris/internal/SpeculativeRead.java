/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.DeadlineExceededException;
import io.hybris.spi.MetadataKey;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The common-case read of a guessed version, started on an I/O thread while the GET's metadata read runs
 * ({@code hybris.get.speculate}, docs/protocol.md "Speculative reads"): the guess is the version this client last
 * read or committed for the key. When the metadata read finds that very version, the GET takes these bytes, which
 * are verified against the guess's hash, equal to the found version's (one version, one value); otherwise the read
 * is cancelled and the GET reads the version found, as without speculation. What the GET returns never depends on
 * the guess: only when the read starts. Single use, by one caller.
 */
final class SpeculativeRead {
    private final MetadataKey mk;
    private final Metadata guess;
    private final Future<byte[]> read;
    private final List<Throwable> failures = new ArrayList<>();

    private SpeculativeRead(ReadPath path, ExecutorService io, MetadataKey mk, Metadata guess, Deadline d) {
        this.mk = mk;
        this.guess = guess;
        Current assumed = new Current(guess, null, 0);
        this.read = io.submit(() -> path.read(mk, assumed, d, failures));
    }

    /**
     * Starts reading {@code guess}, the version of {@code mk} this client saw last; null if the I/O threads take no
     * more work (the client is closing: the GET then fails as without speculation).
     */
    static SpeculativeRead start(ReadPath path, ExecutorService io, MetadataKey mk, Metadata guess, Deadline d) {
        try {
            return new SpeculativeRead(path, io, mk, guess, d);
        } catch (RejectedExecutionException e) {
            return null;
        }
    }

    /**
     * The verified stored bytes of {@code found}'s version if it is the guessed one and the read got them; else
     * null (the read cancelled or failed: the caller reads {@code found} as usual, and {@code failures} holds what
     * failed here).
     */
    byte[] stored(Current found, Deadline d, List<Throwable> callerFailures) {
        Metadata meta = found.meta();
        if (!meta.timestamp().equals(guess.timestamp()) || !java.util.Arrays.equals(meta.sha256(), guess.sha256())) {
            cancel();
            return null;
        }
        try {
            byte[] stored = read.get(d.remainingNanos(), TimeUnit.NANOSECONDS);
            if (stored == null) {
                callerFailures.addAll(failures); // the read's answers, complete: it ended
            }
            return stored;
        } catch (InterruptedException e) {
            cancel();
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("get of " + mk + " interrupted", false, e);
        } catch (TimeoutException e) {
            cancel();
            throw new DeadlineExceededException("get of " + mk + " did not complete within " + d.budget());
        } catch (ExecutionException e) {
            callerFailures.addAll(failures);
            callerFailures.add(e.getCause());
            return null;
        }
    }

    /** Stops the read if it still runs (its requests are abandoned); a no-op once it ended. */
    void cancel() {
        read.cancel(true);
    }
}
