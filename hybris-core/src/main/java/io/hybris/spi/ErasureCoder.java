/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/**
 * A systematic Reed-Solomon erasure coder over GF(2^8) for {@code k} data chunks and {@code m} parity chunks.
 *
 * <p>The code is fixed so that chunks written by one implementation can be decoded by any other: the field is
 * GF(2^8) with the polynomial {@code x^8 + x^4 + x^3 + x^2 + 1} (0x11d), chunk {@code i < k} is data chunk
 * {@code i} unchanged, and parity chunk {@code i} ({@code k <= i < k + m}) is, byte by byte,
 * {@code XOR over j < k of inverse(i XOR j) * data[j]} — the Cauchy matrix of ISA-L's
 * {@code gf_gen_cauchy1_matrix}. Every square submatrix of a Cauchy matrix is invertible, so any {@code k} of the
 * {@code k + m} chunks decode the rest.
 *
 * <p>Chunks are byte arrays; each operation works on the first {@code length} bytes of every chunk (arrays may be
 * longer). Implementations are thread-safe: one instance serves concurrent calls, and tables are built once in the
 * constructor (decoding matrices for an erasure pattern may be cached).
 */
public interface ErasureCoder {

    /** The largest {@code k + m}: GF(2^8) has 256 distinct elements for the Cauchy matrix's points. */
    int MAX_TOTAL_CHUNKS = 256;

    /** The name of the provider that made this coder, e.g. {@code java} or {@code native}. */
    String name();

    /** {@code k}, the number of data chunks. */
    int dataChunks();

    /** {@code m}, the number of parity chunks. */
    int parityChunks();

    /** {@code k + m}. */
    default int totalChunks() {
        return dataChunks() + parityChunks();
    }

    /**
     * Computes the parity chunks from the data chunks.
     *
     * @param data   {@code k} arrays of at least {@code length} bytes
     * @param parity {@code m} arrays of at least {@code length} bytes; their first {@code length} bytes are overwritten
     * @param length the chunk length in bytes, {@code >= 0}
     * @throws IllegalArgumentException if the array counts or lengths do not match
     */
    void encode(byte[][] data, byte[][] parity, int length);

    /**
     * Restores missing chunks from any {@code k} present ones. {@code chunks} has {@code k + m} entries;
     * {@code present[i]} says whether {@code chunks[i]} holds valid bytes. Missing entries that are {@code null} or
     * shorter than {@code length} are replaced with new arrays; present ones are never written.
     *
     * @param chunks   the {@code k + m} chunks, in code order (data first, then parity)
     * @param present  which chunks are valid; at least {@code k} must be
     * @param length   the chunk length in bytes
     * @param dataOnly {@code true} to restore only missing data chunks (what a reader needs), {@code false} to
     *                 restore missing parity chunks too
     * @throws IllegalArgumentException if fewer than {@code k} chunks are present or the arrays do not match
     */
    void reconstruct(byte[][] chunks, boolean[] present, int length, boolean dataOnly);

    /**
     * The chunk length for a value of {@code valueLength} bytes: {@code ceil(valueLength / k)} (the last data chunk
     * is padded with zeros; an empty value has empty chunks).
     */
    default int chunkLength(long valueLength) {
        if (valueLength < 0) {
            throw new IllegalArgumentException("value length cannot be negative, got " + valueLength);
        }
        long chunk = (valueLength + dataChunks() - 1) / dataChunks();
        if (chunk > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a value of " + valueLength + " bytes needs chunks of " + chunk
                    + " bytes, more than a Java array holds; use more data chunks (k)");
        }
        return (int) chunk;
    }

    /**
     * Splits a value into {@code k} data chunks of {@link #chunkLength} bytes and encodes {@code m} parity chunks.
     *
     * @return the {@code k + m} chunks in code order
     */
    default byte[][] encodeValue(byte[] value) {
        int k = dataChunks();
        int length = chunkLength(value.length);
        byte[][] chunks = new byte[totalChunks()][];
        for (int i = 0; i < k; i++) {
            int from = Math.min(value.length, i * length);
            int to = Math.min(value.length, from + length);
            byte[] chunk = new byte[length];
            System.arraycopy(value, from, chunk, 0, to - from);
            chunks[i] = chunk;
        }
        byte[][] data = java.util.Arrays.copyOfRange(chunks, 0, k);
        byte[][] parity = new byte[parityChunks()][];
        for (int i = 0; i < parity.length; i++) {
            parity[i] = new byte[length];
            chunks[k + i] = parity[i];
        }
        encode(data, parity, length);
        return chunks;
    }

    /**
     * Restores a value of {@code valueLength} bytes from at least {@code k} of its chunks (as made by
     * {@link #encodeValue}). Missing data chunks are reconstructed into {@code chunks}.
     *
     * @throws IllegalArgumentException if fewer than {@code k} chunks are present or a present chunk is not
     *                                  {@link #chunkLength} bytes long
     */
    default byte[] decodeValue(byte[][] chunks, boolean[] present, long valueLength) {
        if (valueLength > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a value of " + valueLength + " bytes does not fit in a byte array");
        }
        int length = chunkLength(valueLength);
        for (int i = 0; i < chunks.length && i < present.length; i++) {
            if (present[i] && (chunks[i] == null || chunks[i].length != length)) {
                throw new IllegalArgumentException("chunk " + i + " should be " + length + " bytes for a value of "
                        + valueLength + " bytes, is " + (chunks[i] == null ? "null" : chunks[i].length + " bytes"));
            }
        }
        reconstruct(chunks, present, length, true);
        byte[] value = new byte[(int) valueLength];
        for (int i = 0, at = 0; at < value.length; i++) {
            int n = Math.min(length, value.length - at);
            System.arraycopy(chunks[i], 0, value, at, n);
            at += n;
        }
        return value;
    }

    /**
     * Checks coding parameters, naming what is wrong and how to fix it.
     *
     * @param k data chunks, {@code >= 1}
     * @param m parity chunks, {@code >= 0}
     * @throws IllegalArgumentException if {@code k < 1}, {@code m < 0} or {@code k + m > 256}
     */
    static void checkParameters(int k, int m) {
        if (k < 1) {
            throw new IllegalArgumentException("erasure coding needs at least 1 data chunk (k >= 1), got k=" + k);
        }
        if (m < 0) {
            throw new IllegalArgumentException("the number of parity chunks cannot be negative, got m=" + m);
        }
        if ((long) k + m > MAX_TOTAL_CHUNKS) {
            throw new IllegalArgumentException("Reed-Solomon over GF(2^8) supports at most " + MAX_TOTAL_CHUNKS
                    + " chunks in total, got k=" + k + " + m=" + m + " = " + ((long) k + m)
                    + "; use fewer data chunks (k) or fewer parity chunks (m)");
        }
    }
}
