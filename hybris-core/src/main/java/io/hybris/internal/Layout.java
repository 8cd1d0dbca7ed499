/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.List;

/**
 * How one version's stored bytes are placed on clouds and read back: replicated on {@code f+1} clouds
 * ({@link ReplicatedLayout}) or erasure-coded across {@code k+f} ({@link ErasureLayout}). The protocol
 * ({@link Engine}) decides names, timestamps and commits; a layout only moves bytes, through the races of the
 * cloud-call kernel ({@link CloudCalls}), and records in the version's metadata where they went. Implementations
 * are immutable and thread-safe.
 */
interface Layout {
    /** Where a version's bytes went: {@code clouds} as metadata lists them, and the erasure record (or null). */
    record Placement(List<String> clouds, Metadata.Erasure erasure) {
    }

    /**
     * Stores {@code stored} under {@code objectKey}. On failure nothing stays behind that this call knows of (late
     * uploads delete themselves) and the failure is thrown.
     */
    Placement store(String objectKey, byte[] stored, Deadline d);

    /**
     * The common-case read of the version {@code meta} describes: its stored bytes, verified against the metadata;
     * or null when its listed clouds cannot provide them (the caller then runs the worst case).
     */
    byte[] read(String objectKey, Metadata meta, Deadline d, List<Throwable> failures);

    /**
     * Starts the common-case read of {@code meta}'s version, its first requests only, for a caller that learns later
     * whether it wants the bytes (a speculative read, {@link SpeculativeRead}); {@link #finishRead} then runs the
     * rest, {@link PendingRead#abandon()} gives it up. Null when this layout's read cannot be started that way.
     */
    default PendingRead startRead(String objectKey, Metadata meta, Deadline d) {
        return null;
    }

    /** The rest of a read {@link #startRead} started: as {@link #read}. */
    default byte[] finishRead(PendingRead started, Deadline d, List<Throwable> failures) {
        throw new IllegalStateException(getClass().getSimpleName() + " starts no reads");
    }

    /**
     * One round of the worst-case read (see {@link CloudCalls#readRound}): the verified stored bytes, or null when
     * the caller should re-read metadata.
     */
    byte[] readRound(Race<byte[]> race, Race.Signal changed, String objectKey, Metadata meta, Deadline d,
                     List<Throwable> failures) throws InterruptedException;
}
