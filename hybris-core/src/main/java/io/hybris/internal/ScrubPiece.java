/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.List;

/**
 * One stored object of a version as a scrub checks it (docs/scrub.md): a value stored whole, a chunked value's
 * manifest, or one of its chunks — replicated on {@code clouds} (each copy the whole object) or erasure-coded
 * (fragment {@code i} on {@code clouds.get(i)}). Only a top-level piece (not part of a chunked value) can move to
 * another cloud by a conditional update of its metadata.
 *
 * @param name     the object name
 * @param clouds   the clouds holding a copy (or fragment), as recorded
 * @param size     the stored size of the object (before erasure coding)
 * @param sha256   the object's SHA-256
 * @param erasure  the erasure record, or null when replicated
 * @param topLevel whether the piece is the version itself (its clouds are in the version's metadata)
 */
record ScrubPiece(String name, List<String> clouds, long size, byte[] sha256, Metadata.Erasure erasure,
                  boolean topLevel) {
    ScrubPiece {
        clouds = List.copyOf(clouds);
    }

    /** The stored size of copy {@code i} (a fragment's length when erasure-coded). */
    long copySize(int i) {
        return erasure == null ? size : erasure.chunkLength(size);
    }

    /** The SHA-256 of copy {@code i}. */
    byte[] copySha(int i) {
        return erasure == null ? sha256 : erasure.chunkHashes().get(i);
    }

    /** Copies needed to rebuild the others: one replica, or {@code k} fragments. */
    int needed() {
        return erasure == null ? 1 : erasure.dataChunks();
    }
}
