/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.util.Random;

import static io.hybris.benchmarks.LargeValuesBenchmark.*;

/** The value's bytes: position p holds PATTERN[p % PATTERN.length], so no two chunks are alike. */
final class ValuePattern {
    private static final byte[] PATTERN = new byte[16 * MiB + 4099];

    static {
        new Random(42).nextBytes(PATTERN);
    }

    /** Fills {@code dst[off, off+len)} with the value's bytes from position {@code pos}. */
    static void fill(byte[] dst, int off, int len, long pos) {
        while (len > 0) {
            int at = (int) (pos % PATTERN.length);
            int n = Math.min(len, PATTERN.length - at);
            System.arraycopy(PATTERN, at, dst, off, n);
            off += n;
            len -= n;
            pos += n;
        }
    }

    static byte[] part(long pos, int len) {
        byte[] b = new byte[len];
        fill(b, 0, len, pos);
        return b;
    }

    /** A stream of the value's first {@code length} bytes, made as it is read. */
    static InputStream stream(long length) {
        return new InputStream() {
            private long pos;

            @Override
            public int read() {
                if (pos >= length) {
                    return -1;
                }
                return PATTERN[(int) (pos++ % PATTERN.length)] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= length) {
                    return -1;
                }
                int n = (int) Math.min(len, length - pos);
                fill(b, off, n, pos);
                pos += n;
                return n;
            }
        };
    }

    /** Reads {@code in} to its end and checks every byte against the value's from {@code pos}. */
    static long verify(InputStream in, long pos) throws IOException {
        byte[] got = new byte[BUFFER];
        byte[] want = new byte[BUFFER];
        long total = 0;
        for (int n; (n = in.read(got)) > 0; ) {
            fill(want, 0, n, pos + total);
            if (!java.util.Arrays.equals(got, 0, n, want, 0, n)) {
                throw new IllegalStateException("wrong bytes near offset " + (pos + total));
            }
            total += n;
        }
        return total;
    }
}
