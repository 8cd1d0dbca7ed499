/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** The unsigned LEB128 varints of the binary formats (metadata, chunk manifests, cache entries). */
final class Varints {
    private Varints() {
    }

    /** Writes {@code v} (treated as unsigned) in 7-bit groups, least significant first. */
    static void write(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /**
     * Reads a varint written by {@link #write}.
     *
     * @throws IllegalArgumentException if it runs over 64 bits
     * @throws java.nio.BufferUnderflowException if the buffer ends inside it
     */
    static long read(ByteBuffer in) {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.get() & 0xff;
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IllegalArgumentException("malformed varint");
    }
}
