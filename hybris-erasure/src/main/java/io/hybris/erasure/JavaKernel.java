/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Multiplies chunks by a fixed GF(2^8) coefficient matrix: {@code out[t] = XOR over s of c[t][s] * in[s]}, byte by
 * byte, in loops the JIT turns into SIMD code (measured on the project machine, see {@code docs/benchmarks.md}).
 *
 * <p>The chunks are copied, 4 KiB at a time, into {@code long} arrays (eight bytes per element, so each element
 * holds eight independent GF(2^8) values). Each target is then computed by Horner's rule over the bits of its
 * coefficients: {@code acc = 2 * acc XOR (XOR of in[s] with bit b of c[t][s] set)}, for {@code b} from the highest
 * bit any coefficient of the row has down to 0. The XOR of a subset is taken four sources per pass (two when the
 * last two have no bit there, as with two sources), each source ANDed with an all-ones or all-zeros mask fixed when
 * the kernel is built; the doubling of eight bytes in one {@code long} is shifts and XORs (shift left within each
 * byte, and reduce the bytes whose top bit overflowed with {@code 0x1d}). Every pass is a plain loop over {@code long} arrays of shifts, ANDs and XORs with loop-invariant
 * operands, which C2 vectorises (AVX2 or AVX-512), unlike table lookups. Leftover bytes (length not a multiple of 8)
 * use the 256-byte multiplication rows.
 */
final class JavaKernel {

    /** Bytes per block: the copies of every source and the accumulator stay in the L1/L2 cache. */
    private static final int BLOCK = 4096;
    private static final long LOW7 = 0x7f7f7f7f7f7f7f7fL;
    private static final long LOW1 = 0x0101010101010101L;

    static {
        // twice() reduces with x^4 + x^3 + x^2 + 1 written as shifts
        if (Gf256.POLYNOMIAL != 0x11d) {
            throw new AssertionError("JavaKernel's doubling is written for the polynomial 0x11d");
        }
    }

    private final int sources;
    private final int targets;
    private final int groups;
    /** {@code masks[((t * 8 + b) * groups + g) * 4 + j]} = -1 if bit b of c[t][g * 4 + j] is set, else 0. */
    private final long[] masks;
    /** {@code top[t]} = the highest bit set in any coefficient of row t, or -1 for a row of zeros. */
    private final int[] top;
    /** {@code tail[t * sources + s]} = multiplication row of the coefficient, for leftover bytes. */
    private final byte[][] tail;

    JavaKernel(int[][] rows) {
        this.targets = rows.length;
        this.sources = rows[0].length;
        this.groups = (sources + 3) >>> 2;
        this.masks = new long[targets * 8 * groups * 4];
        this.top = new int[targets];
        this.tail = new byte[targets * sources][];
        for (int t = 0; t < targets; t++) {
            int highest = -1;
            for (int s = 0; s < sources; s++) {
                int c = rows[t][s] & 0xff;
                highest = Math.max(highest, 31 - Integer.numberOfLeadingZeros(c));
                for (int b = 0; b < 8; b++) {
                    masks[(t * 8 + b) * groups * 4 + s] = -(long) (c >>> b & 1);
                }
                tail[t * sources + s] = Gf256.multiplicationRow(c);
            }
            top[t] = highest;
        }
    }

    void apply(byte[][] in, byte[][] out, int length) {
        int whole = length & ~7;
        if (whole > 0) {
            applyWords(in, out, whole);
        }
        for (int i = whole; i < length; i++) {
            for (int t = 0; t < targets; t++) {
                int acc = 0;
                for (int s = 0; s < sources; s++) {
                    acc ^= tail[t * sources + s][in[s][i] & 0xff];
                }
                out[t][i] = (byte) acc;
            }
        }
    }

    private void applyWords(byte[][] in, byte[][] out, int whole) {
        int size = Math.min(BLOCK, whole) / Long.BYTES; // a small value needs no whole block
        long[][] words = new long[groups * 4][];
        long[] zeros = new long[size];
        for (int s = 0; s < words.length; s++) {
            words[s] = s < sources ? new long[size] : zeros;
        }
        long[] acc = new long[size];
        for (int from = 0; from < whole; from += BLOCK) {
            int n = Math.min(BLOCK, whole - from) / Long.BYTES;
            for (int s = 0; s < sources; s++) {
                ByteBuffer.wrap(in[s], from, n * Long.BYTES).order(ByteOrder.nativeOrder()).asLongBuffer()
                        .get(words[s], 0, n);
            }
            for (int t = 0; t < targets; t++) {
                combine(t, words, acc, n);
                ByteBuffer.wrap(out[t], from, n * Long.BYTES).order(ByteOrder.nativeOrder()).asLongBuffer()
                        .put(acc, 0, n);
            }
        }
    }

    /** {@code acc[0, n)} = row t of the matrix times the sources, by Horner's rule over the coefficient bits. */
    private void combine(int t, long[][] words, long[] acc, int n) {
        int highest = top[t];
        if (highest < 0) {
            Arrays.fill(acc, 0, n, 0L);
            return;
        }
        for (int b = highest; b >= 0; b--) {
            boolean topBit = b == highest; // starts from zero: nothing to double
            boolean written = false;
            for (int g = 0; g < groups; g++) {
                int m = ((t * 8 + b) * groups + g) * 4;
                long ma = masks[m];
                long mb = masks[m + 1];
                long mc = masks[m + 2];
                long md = masks[m + 3];
                if ((ma | mb | mc | md) == 0) {
                    continue;
                }
                long[] a = words[g * 4];
                long[] bb = words[g * 4 + 1];
                long[] c = words[g * 4 + 2];
                long[] d = words[g * 4 + 3];
                if ((mc | md) == 0) { // two sources (k = 2, the f = 1 shape, or sparse bits): half the loads
                    if (!written && !topBit) {
                        twiceXor(acc, a, bb, ma, mb, n);
                    } else if (!written) {
                        set(acc, a, bb, ma, mb, n);
                    } else {
                        xor(acc, a, bb, ma, mb, n);
                    }
                } else if (!written && !topBit) {
                    twiceXor(acc, a, bb, c, d, ma, mb, mc, md, n);
                } else if (!written) {
                    set(acc, a, bb, c, d, ma, mb, mc, md, n);
                } else {
                    xor(acc, a, bb, c, d, ma, mb, mc, md, n);
                }
                written = true;
            }
            if (!written) {
                twice(acc, n); // no coefficient has bit b (never the top bit)
            }
        }
    }

    private static void set(long[] acc, long[] a, long[] b, long[] c, long[] d,
                            long ma, long mb, long mc, long md, int n) {
        for (int i = 0; i < n; i++) {
            acc[i] = (a[i] & ma) ^ (b[i] & mb) ^ (c[i] & mc) ^ (d[i] & md);
        }
    }

    private static void xor(long[] acc, long[] a, long[] b, long[] c, long[] d,
                            long ma, long mb, long mc, long md, int n) {
        for (int i = 0; i < n; i++) {
            acc[i] ^= (a[i] & ma) ^ (b[i] & mb) ^ (c[i] & mc) ^ (d[i] & md);
        }
    }

    private static void set(long[] acc, long[] a, long[] b, long ma, long mb, int n) {
        for (int i = 0; i < n; i++) {
            acc[i] = (a[i] & ma) ^ (b[i] & mb);
        }
    }

    private static void xor(long[] acc, long[] a, long[] b, long ma, long mb, int n) {
        for (int i = 0; i < n; i++) {
            acc[i] ^= (a[i] & ma) ^ (b[i] & mb);
        }
    }

    private static void twiceXor(long[] acc, long[] a, long[] b, long ma, long mb, int n) {
        for (int i = 0; i < n; i++) {
            long x = acc[i];
            long h = (x >>> 7) & LOW1;
            acc[i] = ((x & LOW7) << 1) ^ (h << 4) ^ (h << 3) ^ (h << 2) ^ h ^ (a[i] & ma) ^ (b[i] & mb);
        }
    }

    /** {@code acc = 2 * acc XOR the masked sources}; the doubling as in {@link #twice(long[], int)}. */
    private static void twiceXor(long[] acc, long[] a, long[] b, long[] c, long[] d,
                                 long ma, long mb, long mc, long md, int n) {
        for (int i = 0; i < n; i++) {
            long x = acc[i];
            long h = (x >>> 7) & LOW1;
            acc[i] = ((x & LOW7) << 1) ^ (h << 4) ^ (h << 3) ^ (h << 2) ^ h
                    ^ (a[i] & ma) ^ (b[i] & mb) ^ (c[i] & mc) ^ (d[i] & md);
        }
    }

    /**
     * Doubles eight GF(2^8) values per {@code long}: each byte shifted left by one, and the bytes whose top bit fell
     * off XORed with {@code 0x1d} ({@code h * 0x1d} written as shifts, as {@code h} is 0 or 1 per byte).
     */
    private static void twice(long[] acc, int n) {
        for (int i = 0; i < n; i++) {
            long x = acc[i];
            long h = (x >>> 7) & LOW1;
            acc[i] = ((x & LOW7) << 1) ^ (h << 4) ^ (h << 3) ^ (h << 2) ^ h;
        }
    }
}
