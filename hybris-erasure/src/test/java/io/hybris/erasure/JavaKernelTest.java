/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JavaKernel} against byte-by-byte GF(2^8) arithmetic for coefficient rows chosen to take every kind of pass:
 * a row of zeros, a row whose only coefficient leaves bits with nothing to add (doubling alone), rows whose bits fall
 * only on the first two sources of a group (two-source passes), on all four, on a second and third group (five and
 * nine sources: padded groups), and random rows; over lengths below one word, within one block and across blocks.
 */
class JavaKernelTest {

    @Test
    void everyKindOfRowMatchesByteArithmetic() {
        Random random = new Random(21);
        int[][][] matrices = {
                {{0, 0}, {0x80, 0}, {1, 0}, {0xff, 0x01}},
                {{2, 0, 0, 0, 0}, {0, 0, 0, 0, 0x40}, {3, 5, 0x81, 0x90, 7}, {0, 0, 0, 0, 0}},
                {{0x11, 0x22, 0, 0}, {0, 0, 0x33, 0x44}, {0x80, 0x80, 0x80, 0x80}},
                randomRows(random, 3, 9),
                randomRows(random, 4, 2),
        };
        int[] lengths = {0, 5, 8, 13, 4096, 4096 + 8, 3 * 4096 + 8 * 7 + 3};
        for (int[][] rows : matrices) {
            JavaKernel kernel = new JavaKernel(rows);
            int sources = rows[0].length;
            for (int length : lengths) {
                byte[][] in = new byte[sources][length];
                for (byte[] chunk : in) {
                    random.nextBytes(chunk);
                }
                byte[][] out = new byte[rows.length][length];
                for (byte[] o : out) {
                    random.nextBytes(o); // garbage: every byte must be overwritten
                }
                kernel.apply(in, out, length);
                for (int t = 0; t < rows.length; t++) {
                    assertThat(out[t]).as("row %d of %d x %d, %d bytes", t, rows.length, sources, length)
                            .isEqualTo(expected(rows[t], in, length));
                }
            }
        }
    }

    private static int[][] randomRows(Random random, int targets, int sources) {
        int[][] rows = new int[targets][sources];
        for (int[] row : rows) {
            for (int s = 0; s < sources; s++) {
                row[s] = random.nextInt(256);
            }
        }
        return rows;
    }

    private static byte[] expected(int[] row, byte[][] in, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            int acc = 0;
            for (int s = 0; s < row.length; s++) {
                acc ^= Gf256.multiply(row[s], in[s][i]);
            }
            out[i] = (byte) acc;
        }
        return out;
    }
}
