package io.hybris.erasure;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Multiplies chunks by a fixed GF(2^8) coefficient matrix eight bytes at a time in {@code long}s (SWAR).
 *
 * <p>For a target {@code t} = XOR over sources {@code s} of {@code c[t][s] * x[s]}, write each coefficient in bits:
 * {@code t = XOR over b of 2^b * (XOR of x[s] with bit b of c[t][s] set)} and evaluate it by Horner's rule, from
 * bit 7 down, doubling the accumulator (eight GF(2^8) doublings in one {@code long}: shift, and reduce the bytes
 * that overflowed with 0x1d). The XOR of a subset of sources is looked up: sources are taken four at a time and the
 * 16 XORs of each group's subsets are built once per eight bytes, then every (target, bit, group) is one load and
 * one XOR at an index fixed when the kernel is built. Leftover bytes (length not a multiple of 8) use the byte
 * multiplication table.
 */
final class SwarKernel {

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

    SwarKernel(int[][] rows) {
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
        int whole = length & ~7;
        if (whole > 0) {
            if (groups == 1) {
                applyOneGroup(in, out, whole);
            } else {
                applyGroups(in, out, whole);
            }
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

    private static long twice(long x) {
        return ((x & LOW7) << 1) ^ (((x >>> 7) & LOW1) * REDUCE);
    }

    /** Up to four sources: one subset table. */
    private void applyOneGroup(byte[][] in, byte[][] out, int whole) {
        long[] table = new long[16];
        byte[] in0 = in[0];
        byte[] in1 = sources > 1 ? in[1] : null;
        byte[] in2 = sources > 2 ? in[2] : null;
        byte[] in3 = sources > 3 ? in[3] : null;
        int[] idx = index;
        int n = targets;
        for (int off = 0; off < whole; off += 8) {
            long a = (long) LONGS.get(in0, off);
            long b = in1 == null ? 0 : (long) LONGS.get(in1, off);
            long c = in2 == null ? 0 : (long) LONGS.get(in2, off);
            long d = in3 == null ? 0 : (long) LONGS.get(in3, off);
            fill(table, 0, a, b, c, d);
            for (int t = 0, p = 0; t < n; t++, p += 8) {
                long acc = table[idx[p]];
                acc = twice(acc) ^ table[idx[p + 1]];
                acc = twice(acc) ^ table[idx[p + 2]];
                acc = twice(acc) ^ table[idx[p + 3]];
                acc = twice(acc) ^ table[idx[p + 4]];
                acc = twice(acc) ^ table[idx[p + 5]];
                acc = twice(acc) ^ table[idx[p + 6]];
                acc = twice(acc) ^ table[idx[p + 7]];
                LONGS.set(out[t], off, acc);
            }
        }
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
