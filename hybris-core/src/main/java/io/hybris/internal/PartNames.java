/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

/**
 * The name indices of the chunks of a value uploaded in parts (docs/streaming.md, "Uploads in parts"): chunk
 * {@code j} of an upload attempt of part {@code p} is named {@code <version name>#c<index>} with
 * {@code index = p << 45 | attempt << 21 | j}. The indices increase with the part number and, within an attempt,
 * with the chunk, so a manifest lists them in increasing order; the random attempt keeps two uploads of the same
 * part number (a client's retry racing the first try) from writing the same names.
 */
final class PartNames {
    /** The highest part number (S3's). */
    static final int MAX_PART = 10_000;
    /** The most chunks one part can have: 2^21 (16 TiB in 8 MiB chunks). */
    static final long MAX_CHUNKS_PER_PART = 1L << 21;
    private static final int ATTEMPT_BITS = 24;

    private PartNames() {
    }

    /** The name index of chunk {@code j} of attempt {@code attempt} (24 bits) at uploading part {@code part}. */
    static long index(int part, int attempt, long j) {
        if (part < 1 || part > MAX_PART || attempt < 0 || attempt >= 1 << ATTEMPT_BITS || j < 0
                || j >= MAX_CHUNKS_PER_PART) {
            throw new IllegalArgumentException("part " + part + ", attempt " + attempt + ", chunk " + j);
        }
        return (long) part << 45 | (long) attempt << 21 | j;
    }

    /** The part number a name index belongs to. */
    static int partOf(long index) {
        return (int) (index >>> 45);
    }

    /** A random attempt number for one upload of a part. */
    static int newAttempt(java.util.Random random) {
        return random.nextInt(1 << ATTEMPT_BITS);
    }
}
