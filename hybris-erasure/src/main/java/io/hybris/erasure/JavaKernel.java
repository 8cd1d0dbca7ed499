/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Multiplies chunks by a fixed GF(2^8) coefficient matrix: {@code out[t] = XOR over s of c[t][s] * in[s]}, byte by
 * byte. Two methods, chosen by the matrix's shape (measured on the project machine, see {@code docs/benchmarks.md}):
 *
 * <ul>
 *   <li><b>Byte tables</b> for up to four sources, or a single target: each product is one lookup in the
 *       256-byte multiplication row of its coefficient, one pass over the chunk per target (in 8 KiB blocks, four
 *       sources per pass, when there are more than four sources).</li>
 *   <li><b>SWAR</b> otherwise, eight bytes at a time in {@code long}s: write each coefficient in bits,
 *       {@code t = XOR over b of 2^b * (XOR of in[s] with bit b of c[t][s] set)}, and evaluate it by Horner's rule
 *       from bit 7 down, doubling the accumulator (eight GF(2^8) doublings in one {@code long}: shift, and reduce
 *       the bytes that overflowed with 0x1d). The XOR of a subset of sources is looked up: sources are taken four at
 *       a time and the 16 XORs of each group's subsets are built once per eight bytes and shared by all targets,
 *       so every (target, bit, group) is one load and one XOR at an index fixed when the kernel is built. Leftover
 *       bytes (length not a multiple of 8) use the byte tables.</li>
 * </ul>
 */
final class JavaKernel {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW7 = 0x7f7f7f7f7f7f7f7fL;
    private static final long LOW1 = 0x0101010101010101L;
    private static final long REDUCE = Gf256.POLYNOMIAL & 0xff;

    private final int sources;
    private final int targets;
    private final int groups;
    /** {@code index[(t * 8 + (7 - b)) * groups + g]} = offset in the subset table of group g's bit-b subset. */
    private final int[] index;
    /** {@code tail[t * sources + s]} = multiplication row of the coefficient, for leftover bytes. */
    private final byte[][] tail;

    JavaKernel(int[][] rows) {
        this.targets = rows.length;
        this.sources = rows[0].length;
        this.groups = (sources + 3) >>> 2;
        this.index = new int[targets * 8 * groups];
        this.tail = new byte[targets * sources][];
        for (int t = 0; t < targets; t++) {
            for (int b = 7; b >= 0; b--) {
                for (int g = 0; g < groups; g++) {
                    int mask = 0;
                    for (int j = 0; j < 4 && g * 4 + j < sources; j++) {
                        if ((rows[t][g * 4 + j] >>> b & 1) != 0) {
                            mask |= 1 << j;
                        }
                    }
                    index[(t * 8 + (7 - b)) * groups + g] = g * 16 + mask;
                }
            }
            for (int s = 0; s < sources; s++) {
                tail[t * sources + s] = Gf256.multiplicationRow(rows[t][s]);
            }
        }
    }

    void apply(byte[][] in, byte[][] out, int length) {
        if (sources <= 4) {
            applyBytes(in, out, length);
            return;
        }
        if (targets == 1) {
            applyByteGroups(in, out, length);
            return;
        }
        int whole = length & ~7;
        if (whole > 0) {
            applyGroups(in, out, whole);
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

    /** Up to four sources: one pass per target, one table lookup per source byte. */
    private void applyBytes(byte[][] in, byte[][] out, int length) {
        byte[] a = in[0];
        byte[] b = sources > 1 ? in[1] : null;
        for (int t = 0; t < targets; t++) {
            byte[] o = out[t];
            byte[] ta = tail[t * sources];
            if (sources == 4) {
                byte[] tb = tail[t * sources + 1];
                byte[] tc = tail[t * sources + 2];
                byte[] td = tail[t * sources + 3];
                byte[] c = in[2];
                byte[] d = in[3];
                for (int i = 0; i < length; i++) {
                    o[i] = (byte) (ta[a[i] & 0xff] ^ tb[b[i] & 0xff] ^ tc[c[i] & 0xff] ^ td[d[i] & 0xff]);
                }
            } else if (sources == 3) {
                byte[] tb = tail[t * sources + 1];
                byte[] tc = tail[t * sources + 2];
                byte[] c = in[2];
                for (int i = 0; i < length; i++) {
                    o[i] = (byte) (ta[a[i] & 0xff] ^ tb[b[i] & 0xff] ^ tc[c[i] & 0xff]);
                }
            } else if (b == null) {
                for (int i = 0; i < length; i++) {
                    o[i] = ta[a[i] & 0xff];
                }
            } else {
                byte[] tb = tail[t * sources + 1];
                for (int i = 0; i < length; i++) {
                    o[i] = (byte) (ta[a[i] & 0xff] ^ tb[b[i] & 0xff]);
                }
            }
        }
    }

    private static final int BLOCK = 8192;

    /** Any number of sources: byte tables, four sources per pass, in cache-sized blocks. */
    private void applyByteGroups(byte[][] in, byte[][] out, int length) {
        for (int from = 0; from < length; from += BLOCK) {
            int to = Math.min(length, from + BLOCK);
            for (int t = 0; t < targets; t++) {
                byte[] o = out[t];
                for (int s = 0; s < sources; s += 4) {
                    int n = Math.min(4, sources - s);
                    byte[] ta = tail[t * sources + s];
                    byte[] a = in[s];
                    boolean first = s == 0;
                    if (n == 4) {
                        byte[] tb = tail[t * sources + s + 1];
                        byte[] tc = tail[t * sources + s + 2];
                        byte[] td = tail[t * sources + s + 3];
                        byte[] b = in[s + 1];
                        byte[] c = in[s + 2];
                        byte[] d = in[s + 3];
                        if (first) {
                            for (int i = from; i < to; i++) {
                                o[i] = (byte) (ta[a[i] & 0xff] ^ tb[b[i] & 0xff] ^ tc[c[i] & 0xff] ^ td[d[i] & 0xff]);
                            }
                        } else {
                            for (int i = from; i < to; i++) {
                                o[i] ^= (byte) (ta[a[i] & 0xff] ^ tb[b[i] & 0xff] ^ tc[c[i] & 0xff] ^ td[d[i] & 0xff]);
                            }
                        }
                    } else {
                        for (int i = from; i < to; i++) {
                            int acc = first ? 0 : o[i];
                            for (int j = 0; j < n; j++) {
                                acc ^= tail[t * sources + s + j][in[s + j][i] & 0xff];
                            }
                            o[i] = (byte) acc;
                        }
                    }
                }
            }
        }
    }

    private static long twice(long x) {
        return ((x & LOW7) << 1) ^ (((x >>> 7) & LOW1) * REDUCE);
    }

    private void applyGroups(byte[][] in, byte[][] out, int whole) {
        int g = groups;
        long[] table = new long[g * 16];
        int[] idx = index;
        int n = targets;
        int src = sources;
        for (int off = 0; off < whole; off += 8) {
            for (int q = 0; q < g; q++) {
                int s = q * 4;
                long a = (long) LONGS.get(in[s], off);
                long b = s + 1 < src ? (long) LONGS.get(in[s + 1], off) : 0;
                long c = s + 2 < src ? (long) LONGS.get(in[s + 2], off) : 0;
                long d = s + 3 < src ? (long) LONGS.get(in[s + 3], off) : 0;
                fill(table, q * 16, a, b, c, d);
            }
            if (g == 2) {
                for (int t = 0, p = 0; t < n; t++, p += 16) {
                    long acc = table[idx[p]] ^ table[idx[p + 1]];
                    acc = twice(acc) ^ table[idx[p + 2]] ^ table[idx[p + 3]];
                    acc = twice(acc) ^ table[idx[p + 4]] ^ table[idx[p + 5]];
                    acc = twice(acc) ^ table[idx[p + 6]] ^ table[idx[p + 7]];
                    acc = twice(acc) ^ table[idx[p + 8]] ^ table[idx[p + 9]];
                    acc = twice(acc) ^ table[idx[p + 10]] ^ table[idx[p + 11]];
                    acc = twice(acc) ^ table[idx[p + 12]] ^ table[idx[p + 13]];
                    acc = twice(acc) ^ table[idx[p + 14]] ^ table[idx[p + 15]];
                    LONGS.set(out[t], off, acc);
                }
                continue;
            }
            if (g == 3) {
                for (int t = 0, p = 0; t < n; t++, p += 24) {
                    long acc = table[idx[p]] ^ table[idx[p + 1]] ^ table[idx[p + 2]];
                    acc = twice(acc) ^ table[idx[p + 3]] ^ table[idx[p + 4]] ^ table[idx[p + 5]];
                    acc = twice(acc) ^ table[idx[p + 6]] ^ table[idx[p + 7]] ^ table[idx[p + 8]];
                    acc = twice(acc) ^ table[idx[p + 9]] ^ table[idx[p + 10]] ^ table[idx[p + 11]];
                    acc = twice(acc) ^ table[idx[p + 12]] ^ table[idx[p + 13]] ^ table[idx[p + 14]];
                    acc = twice(acc) ^ table[idx[p + 15]] ^ table[idx[p + 16]] ^ table[idx[p + 17]];
                    acc = twice(acc) ^ table[idx[p + 18]] ^ table[idx[p + 19]] ^ table[idx[p + 20]];
                    acc = twice(acc) ^ table[idx[p + 21]] ^ table[idx[p + 22]] ^ table[idx[p + 23]];
                    LONGS.set(out[t], off, acc);
                }
                continue;
            }
            for (int t = 0, p = 0; t < n; t++) {
                long acc = 0;
                for (int q = 0; q < g; q++) {
                    acc ^= table[idx[p++]];
                }
                for (int bit = 1; bit < 8; bit++) {
                    long x = 0;
                    for (int q = 0; q < g; q++) {
                        x ^= table[idx[p++]];
                    }
                    acc = twice(acc) ^ x;
                }
                LONGS.set(out[t], off, acc);
            }
        }
    }

    private static void fill(long[] table, int base, long a, long b, long c, long d) {
        long ab = a ^ b;
        long ac = a ^ c;
        long bc = b ^ c;
        long abc = ab ^ c;
        table[base] = 0;
        table[base + 1] = a;
        table[base + 2] = b;
        table[base + 3] = ab;
        table[base + 4] = c;
        table[base + 5] = ac;
        table[base + 6] = bc;
        table[base + 7] = abc;
        table[base + 8] = d;
        table[base + 9] = a ^ d;
        table[base + 10] = b ^ d;
        table[base + 11] = ab ^ d;
        table[base + 12] = c ^ d;
        table[base + 13] = ac ^ d;
        table[base + 14] = bc ^ d;
        table[base + 15] = abc ^ d;
    }
}
