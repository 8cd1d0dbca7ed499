/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

/** Arithmetic in GF(2^8) with the polynomial 0x11d (the field of ISA-L and most Reed-Solomon libraries). */
final class Gf256 {

    static final int POLYNOMIAL = 0x11d;

    private static final int[] EXP = new int[512];
    private static final int[] LOG = new int[256];
    /** {@code MUL[a][b] = a * b}; 64 KiB, shared by every coder. */
    private static final byte[][] MUL = new byte[256][256];

    static {
        int x = 1;
        for (int i = 0; i < 255; i++) {
            EXP[i] = x;
            LOG[x] = i;
            x <<= 1;
            if ((x & 0x100) != 0) {
                x ^= POLYNOMIAL;
            }
        }
        for (int i = 255; i < EXP.length; i++) {
            EXP[i] = EXP[i - 255];
        }
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                MUL[a][b] = (byte) slowMultiply(a, b);
            }
        }
    }

    private Gf256() {
    }

    private static int slowMultiply(int a, int b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return EXP[LOG[a] + LOG[b]];
    }

    static int multiply(int a, int b) {
        return MUL[a & 0xff][b & 0xff] & 0xff;
    }

    /** The row of products {@code c * x} for every byte {@code x}; callers must not modify it. */
    static byte[] multiplicationRow(int c) {
        return MUL[c & 0xff];
    }

    static int inverse(int a) {
        if (a == 0) {
            throw new ArithmeticException("0 has no inverse in GF(2^8)");
        }
        return EXP[255 - LOG[a]];
    }
}
