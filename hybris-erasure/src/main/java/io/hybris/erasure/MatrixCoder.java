/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.spi.ErasureCoder;

import java.util.BitSet;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared part of every coder: parameter and argument checks, the generator matrix, and decoding matrices
 * (one per erasure pattern, cached). Subclasses turn a coefficient matrix into a {@code K} once ({@link #compile})
 * and multiply chunks by it ({@link #apply}).
 *
 * @param <K> the subclass's compiled form of a coefficient matrix
 */
abstract class MatrixCoder<K> implements ErasureCoder {

    /** Decoding matrices kept per coder; past this, new patterns are computed per call (never unbounded). */
    private static final int MAX_CACHED_PATTERNS = 4096;

    private final String name;
    private final int k;
    private final int m;
    private final int[][] parityRows;
    private final K encoding;
    private final ConcurrentHashMap<Pattern, K> decodings = new ConcurrentHashMap<>();

    MatrixCoder(String name, int k, int m) {
        ErasureCoder.checkParameters(k, m);
        this.name = name;
        this.k = k;
        this.m = m;
        this.parityRows = CodingMatrix.parityRows(k, m);
        this.encoding = m == 0 ? null : compile(parityRows);
    }

    /** Turns {@code rows[t][s]} (coefficient of source {@code s} for target {@code t}) into a kernel. */
    abstract K compile(int[][] rows);

    /** {@code outputs[t][0..length) = XOR over s of rows[t][s] * inputs[s][0..length)}. */
    abstract void apply(K kernel, byte[][] inputs, byte[][] outputs, int length);

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int dataChunks() {
        return k;
    }

    @Override
    public final int parityChunks() {
        return m;
    }

    @Override
    public final void encode(byte[][] data, byte[][] parity, int length) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(parity, "parity");
        checkLength(length);
        checkChunks("data", data, k, length);
        checkChunks("parity", parity, m, length);
        if (m == 0 || length == 0) {
            return;
        }
        apply(encoding, data, parity, length);
    }

    @Override
    public final void reconstruct(byte[][] chunks, boolean[] present, int length, boolean dataOnly) {
        Objects.requireNonNull(chunks, "chunks");
        Objects.requireNonNull(present, "present");
        checkLength(length);
        int n = k + m;
        if (chunks.length != n || present.length != n) {
            throw new IllegalArgumentException("expected " + n + " chunks and " + n + " presence flags (k=" + k
                    + ", m=" + m + "), got " + chunks.length + " and " + present.length);
        }
        int[] sources = new int[k];
        int found = 0;
        int missing = 0;
        int limit = dataOnly ? k : n;
        for (int i = 0; i < n; i++) {
            if (present[i]) {
                if (chunks[i] == null || chunks[i].length < length) {
                    throw new IllegalArgumentException("chunk " + i + " is marked present but is "
                            + (chunks[i] == null ? "null" : chunks[i].length + " bytes, shorter than " + length));
                }
                if (found < k) {
                    sources[found++] = i;
                }
            } else if (i < limit) {
                missing++;
            }
        }
        if (missing == 0) {
            return;
        }
        if (found < k) {
            throw new IllegalArgumentException("cannot decode: " + found + " chunks present, at least k=" + k
                    + " needed");
        }
        int[] targets = new int[missing];
        byte[][] outputs = new byte[missing][];
        int t = 0;
        for (int i = 0; i < limit; i++) {
            if (!present[i]) {
                if (chunks[i] == null || chunks[i].length < length) {
                    chunks[i] = new byte[length];
                }
                targets[t] = i;
                outputs[t++] = chunks[i];
            }
        }
        if (length == 0) {
            return;
        }
        byte[][] inputs = new byte[k][];
        for (int s = 0; s < k; s++) {
            inputs[s] = chunks[sources[s]];
        }
        apply(decoding(sources, targets), inputs, outputs, length);
    }

    private K decoding(int[] sources, int[] targets) {
        Pattern pattern = new Pattern(bits(sources), bits(targets));
        K kernel = decodings.get(pattern);
        if (kernel == null) {
            kernel = compile(CodingMatrix.decodingRows(k, parityRows, sources, targets));
            if (decodings.size() < MAX_CACHED_PATTERNS) {
                decodings.putIfAbsent(pattern, kernel);
            }
        }
        return kernel;
    }

    private static BitSet bits(int[] indexes) {
        BitSet set = new BitSet();
        for (int i : indexes) {
            set.set(i);
        }
        return set;
    }

    private static void checkLength(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("chunk length cannot be negative, got " + length);
        }
    }

    private static void checkChunks(String what, byte[][] chunks, int expected, int length) {
        if (chunks.length != expected) {
            throw new IllegalArgumentException("expected " + expected + " " + what + " chunks, got " + chunks.length);
        }
        for (int i = 0; i < chunks.length; i++) {
            if (chunks[i] == null || chunks[i].length < length) {
                throw new IllegalArgumentException(what + " chunk " + i + " is "
                        + (chunks[i] == null ? "null" : chunks[i].length + " bytes") + ", needs at least "
                        + length + " bytes");
            }
        }
    }

    /** Which chunks are read and which are restored. */
    private record Pattern(BitSet sources, BitSet targets) {
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + ", k=" + k + ", m=" + m + "]";
    }
}
