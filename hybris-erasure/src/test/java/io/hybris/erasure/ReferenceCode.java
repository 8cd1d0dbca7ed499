/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

/**
 * An independent, slow transcription of the code as {@link io.hybris.spi.ErasureCoder} specifies it: carry-less
 * multiplication reduced by 0x11d, inverse by exponentiation, parity i = XOR of inverse(i XOR j) * data[j].
 */
final class ReferenceCode {

    private ReferenceCode() {
    }

    static int mul(int a, int b) {
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

    static int inv(int a) {
        int r = 1;
        for (int i = 0; i < 254; i++) {
            r = mul(r, a);
        }
        return r;
    }

    static byte[][] parity(byte[][] data, int m, int length) {
        int k = data.length;
        byte[][] parity = new byte[m][length];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < k; j++) {
                int c = inv((k + i) ^ j);
                for (int x = 0; x < length; x++) {
                    parity[i][x] ^= (byte) mul(c, data[j][x] & 0xff);
                }
            }
        }
        return parity;
    }
}
