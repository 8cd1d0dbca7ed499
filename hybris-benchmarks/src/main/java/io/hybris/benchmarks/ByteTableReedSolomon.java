/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.spi.ErasureCoder;

import java.util.Arrays;

/**
 * The reference coder of {@link ErasureCodingBenchmark}: the straightforward byte-table Reed-Solomon of Backblaze's
 * JavaReedSolomon, computing the same code as Hybris's coders ({@link ErasureCoder}: parity {@code i} is the XOR over
 * data chunks {@code j} of {@code inverse((k + i) XOR j) * data[j]} in GF(2^8) modulo 0x11d). Each output byte is
 * one 256-entry table lookup per input chunk, output by output, input by input: no SIMD, no blocking. Decoding
 * inverts the {@code k x k} matrix of the present chunks' rows. Its throughput is the baseline the Java coder's is
 * a ratio of. Not thread-safe (one per benchmark thread).
 */
final class ByteTableReedSolomon implements ErasureCoder {
    private static final byte[][] MUL = new byte[256][256];

    static {
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                MUL[a][b] = (byte) mulSlow(a, b);
            }
        }
    }

    private final int k;
    private final int m;

    ByteTableReedSolomon(int k, int m) {
        this.k = k;
        this.m = m;
    }

    private static int mulSlow(int a, int b) {
        int r = 0;
        for (int i = 0; i < 8; i++) {
            if ((b >>> i & 1) != 0) {
                r ^= a << i;
            }
        }
        for (int bit = 14; bit >= 8; bit--) {
            if ((r >>> bit & 1) != 0) {
                r ^= 0x11d << (bit - 8);
            }
        }
        return r;
    }

    private static int mul(int a, int b) {
        return MUL[a][b] & 0xff;
    }

    private static int inv(int a) {
        int r = 1;
        for (int i = 0; i < 254; i++) {
            r = mul(r, a);
        }
        return r;
    }

    /** The coefficient of data chunk {@code j} in chunk {@code row} (a data row is a unit row). */
    private int coefficient(int row, int j) {
        return row < k ? (row == j ? 1 : 0) : inv(row ^ j);
    }

    @Override
    public String name() {
        return "byte-table reference";
    }

    @Override
    public int dataChunks() {
        return k;
    }

    @Override
    public int parityChunks() {
        return m;
    }

    @Override
    public void encode(byte[][] data, byte[][] parity, int length) {
        for (int i = 0; i < m; i++) {
            byte[] out = parity[i];
            Arrays.fill(out, 0, length, (byte) 0);
            for (int j = 0; j < k; j++) {
                byte[] table = MUL[coefficient(k + i, j)];
                byte[] in = data[j];
                for (int x = 0; x < length; x++) {
                    out[x] ^= table[in[x] & 0xff];
                }
            }
        }
    }

    @Override
    public void reconstruct(byte[][] chunks, boolean[] present, int length, boolean dataOnly) {
        int[] rows = new int[k];
        int found = 0;
        for (int r = 0; r < k + m && found < k; r++) {
            if (present[r]) {
                rows[found++] = r;
            }
        }
        if (found < k) {
            throw new IllegalArgumentException("need " + k + " chunks, have " + found);
        }
        int[][] inverse = invert(rows);
        for (int d = 0; d < k; d++) {
            if (present[d]) {
                continue;
            }
            byte[] out = chunks[d];
            Arrays.fill(out, 0, length, (byte) 0);
            for (int r = 0; r < k; r++) {
                byte[] table = MUL[inverse[d][r]];
                byte[] in = chunks[rows[r]];
                for (int x = 0; x < length; x++) {
                    out[x] ^= table[in[x] & 0xff];
                }
            }
        }
        if (!dataOnly) {
            byte[][] data = Arrays.copyOf(chunks, k);
            byte[][] parity = new byte[m][length];
            encode(data, parity, length);
            for (int i = 0; i < m; i++) {
                if (!present[k + i]) {
                    System.arraycopy(parity[i], 0, chunks[k + i], 0, length);
                }
            }
        }
    }

    /** The inverse of the matrix whose rows are those of chunks {@code rows}, by Gauss-Jordan elimination. */
    private int[][] invert(int[] rows) {
        int[][] a = new int[k][2 * k];
        for (int r = 0; r < k; r++) {
            for (int j = 0; j < k; j++) {
                a[r][j] = coefficient(rows[r], j);
            }
            a[r][k + r] = 1;
        }
        for (int col = 0; col < k; col++) {
            int pivot = col;
            while (a[pivot][col] == 0) {
                pivot++;
            }
            int[] t = a[pivot];
            a[pivot] = a[col];
            a[col] = t;
            int scale = inv(a[col][col]);
            for (int j = 0; j < 2 * k; j++) {
                a[col][j] = mul(a[col][j], scale);
            }
            for (int r = 0; r < k; r++) {
                if (r != col && a[r][col] != 0) {
                    int f = a[r][col];
                    for (int j = 0; j < 2 * k; j++) {
                        a[r][j] ^= mul(f, a[col][j]);
                    }
                }
            }
        }
        int[][] out = new int[k][k];
        for (int r = 0; r < k; r++) {
            System.arraycopy(a[r], k, out[r], 0, k);
        }
        return out;
    }
}
