/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import java.io.InputStream;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * {@code length} pseudo-random bytes from a seed, generated as they are read and never held: two streams with the
 * same seed give the same bytes, so a reader can check a large value against a second stream instead of keeping
 * it. Not thread-safe.
 */
final class PseudoRandomStream extends InputStream {
    private final SplittableRandom random;
    private final long length;
    private long position;
    private long word;
    private int wordBytesLeft;

    PseudoRandomStream(long seed, long length) {
        this.random = new SplittableRandom(seed);
        this.length = length;
    }

    /** Bytes handed out so far. */
    long position() {
        return position;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (position == length) {
            return -1;
        }
        int n = (int) Math.min(len, length - position);
        int i = off;
        int end = off + n;
        while (i < end && wordBytesLeft > 0) {
            b[i++] = (byte) word;
            word >>>= 8;
            wordBytesLeft--;
        }
        while (end - i >= 8) {
            long w = random.nextLong();
            for (int k = 0; k < 8; k++) {
                b[i++] = (byte) w;
                w >>>= 8;
            }
        }
        if (i < end) {
            word = random.nextLong();
            wordBytesLeft = 8;
            while (i < end) {
                b[i++] = (byte) word;
                word >>>= 8;
                wordBytesLeft--;
            }
        }
        position += n;
        return n;
    }

    @Override
    public int available() {
        return (int) Math.min(Integer.MAX_VALUE, length - position);
    }
}
