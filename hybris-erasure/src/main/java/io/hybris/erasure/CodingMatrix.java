/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

/**
 * The fixed systematic Cauchy generator matrix of {@link io.hybris.spi.ErasureCoder} and the matrices derived from
 * it for decoding. Matrices are {@code int[rows][cols]} of field elements.
 */
final class CodingMatrix {

    private CodingMatrix() {
    }

    /**
     * The {@code m x k} parity part of the generator: row {@code i} is for chunk {@code k + i}, entry {@code j} is
     * {@code inverse((k + i) XOR j)} (ISA-L's {@code gf_gen_cauchy1_matrix}).
     */
    static int[][] parityRows(int k, int m) {
        int[][] rows = new int[m][k];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < k; j++) {
                rows[i][j] = Gf256.inverse((k + i) ^ j);
            }
        }
        return rows;
    }

    /** Row {@code chunk} of the full {@code (k + m) x k} generator (identity on top). */
    static int[] generatorRow(int k, int[][] parityRows, int chunk) {
        if (chunk < k) {
            int[] row = new int[k];
            row[chunk] = 1;
            return row;
        }
        return parityRows[chunk - k].clone();
    }

    /**
     * The coefficients that compute {@code targets} from the chunks {@code sources} (k distinct chunk indexes):
     * {@code result[t][s]} multiplies source {@code s} for target {@code t}.
     */
    static int[][] decodingRows(int k, int[][] parityRows, int[] sources, int[] targets) {
        int[][] sub = new int[k][];
        for (int r = 0; r < k; r++) {
            sub[r] = generatorRow(k, parityRows, sources[r]);
        }
        int[][] inverse = invert(sub);
        int[][] result = new int[targets.length][];
        for (int t = 0; t < targets.length; t++) {
            // target = G[target] * data, data = inverse * sources  =>  coefficients = G[target] * inverse
            result[t] = multiply(generatorRow(k, parityRows, targets[t]), inverse);
        }
        return result;
    }

    private static int[] multiply(int[] row, int[][] matrix) {
        int n = matrix[0].length;
        int[] out = new int[n];
        for (int i = 0; i < row.length; i++) {
            if (row[i] == 0) {
                continue;
            }
            for (int j = 0; j < n; j++) {
                out[j] ^= Gf256.multiply(row[i], matrix[i][j]);
            }
        }
        return out;
    }

    /** Gauss-Jordan inversion; the argument is consumed. */
    static int[][] invert(int[][] a) {
        int n = a.length;
        int[][] inv = new int[n][n];
        for (int i = 0; i < n; i++) {
            inv[i][i] = 1;
        }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            while (pivot < n && a[pivot][col] == 0) {
                pivot++;
            }
            if (pivot == n) {
                throw new IllegalStateException("singular decoding matrix: the chunk indexes are not distinct");
            }
            swap(a, col, pivot);
            swap(inv, col, pivot);
            int scale = Gf256.inverse(a[col][col]);
            for (int j = 0; j < n; j++) {
                a[col][j] = Gf256.multiply(a[col][j], scale);
                inv[col][j] = Gf256.multiply(inv[col][j], scale);
            }
            for (int r = 0; r < n; r++) {
                int factor = a[r][col];
                if (r == col || factor == 0) {
                    continue;
                }
                for (int j = 0; j < n; j++) {
                    a[r][j] ^= Gf256.multiply(factor, a[col][j]);
                    inv[r][j] ^= Gf256.multiply(factor, inv[col][j]);
                }
            }
        }
        return inv;
    }

    private static void swap(int[][] m, int i, int j) {
        int[] t = m[i];
        m[i] = m[j];
        m[j] = t;
    }
}
