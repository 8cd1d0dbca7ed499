/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The SHA-256 a read's answer must match, when the read starts before the hash is known: a chunk requested while
 * its manifest is still being read ({@link ChunkSpeculation}). The owner of the read resolves it with the hash
 * once it is known, or marks it missed when the guess behind the read was wrong; a request that arrives first
 * waits for that before its answer is judged. Thread-safe; resolved once.
 */
final class LateHash {
    private final CompletableFuture<byte[]> hash = new CompletableFuture<>();
    /** The deadline of the call whose read waits: the longest a request waits (a guard: the owner resolves it). */
    private final Deadline deadline;

    LateHash(Deadline deadline) {
        this.deadline = deadline;
    }

    /** The answer must match {@code sha256}. */
    void resolve(byte[] sha256) {
        hash.complete(sha256.clone());
    }

    /** The guess was wrong: no answer is wanted. */
    void miss() {
        hash.complete(null);
    }

    /**
     * The hash once the owner knows it; null when the guess missed, the wait was interrupted (the flag is
     * restored) or lasted until the call's deadline: the answer is then not wanted.
     */
    byte[] await() {
        try {
            return hash.get(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
    }
}
