/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bounded reads never take more than the limit plus one byte, whatever size the server announced. */
class BoundedReadsTest {

    /** Counts the bytes a reader took. */
    private static final class CountingStream extends FilterInputStream {
        long taken;

        CountingStream(byte[] bytes) {
            super(new ByteArrayInputStream(bytes));
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            taken += b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            taken += Math.max(0, n);
            return n;
        }
    }

    private static byte[] random(int size) {
        byte[] b = new byte[size];
        new Random(size).nextBytes(b);
        return b;
    }

    private static byte[] read(InputStream in, long max, long announced, ByteArrayOutputStream seen)
            throws IOException {
        return BoundedReads.readAtMost(in, max, announced, "c", "k", seen::write);
    }

    @Test
    void anAnnouncedSizeWithinTheLimitIsReadAndPassedOnWhole() throws IOException {
        for (int size : new int[] {0, 1, 65_536, 300_001}) {
            byte[] value = random(size);
            ByteArrayOutputStream seen = new ByteArrayOutputStream();

            assertThat(read(new ByteArrayInputStream(value), size, size, seen)).isEqualTo(value);
            assertThat(seen.toByteArray()).isEqualTo(value);
        }
    }

    @Test
    void aStreamShorterThanAnnouncedGivesWhatItHad() throws IOException {
        byte[] value = random(1000);
        ByteArrayOutputStream seen = new ByteArrayOutputStream();

        assertThat(read(new ByteArrayInputStream(value), 5000, 4000, seen)).isEqualTo(value);
        assertThat(seen.toByteArray()).isEqualTo(value);
    }

    @Test
    void aStreamLongerThanAnnouncedIsReadOnWithinTheLimit() throws IOException {
        byte[] value = random(200_000);
        ByteArrayOutputStream seen = new ByteArrayOutputStream();

        assertThat(read(new ByteArrayInputStream(value), 200_000, 1000, seen)).isEqualTo(value);
        assertThat(seen.toByteArray()).isEqualTo(value);
    }

    @Test
    void aStreamLongerThanAnnouncedAndTheLimitIsCutAfterOneByteMore() {
        CountingStream in = new CountingStream(random(500_000));

        assertThatThrownBy(() -> read(in, 1000, 1000, new ByteArrayOutputStream()))
                .isInstanceOf(OversizedObjectException.class);
        assertThat(in.taken).isEqualTo(1001);

        CountingStream lying = new CountingStream(random(500_000));
        assertThatThrownBy(() -> read(lying, 100_000, 10, new ByteArrayOutputStream()))
                .isInstanceOf(OversizedObjectException.class);
        assertThat(lying.taken).isEqualTo(100_001);
    }

    @Test
    void anUnknownOrTooLargeAnnouncementFallsBackToTheGrowingRead() throws IOException {
        byte[] value = random(70_000);
        assertThat(read(new ByteArrayInputStream(value), 70_000, -1, new ByteArrayOutputStream())).isEqualTo(value);

        CountingStream in = new CountingStream(random(500_000));
        assertThatThrownBy(() -> read(in, 1000, 500_000, new ByteArrayOutputStream()))
                .isInstanceOf(OversizedObjectException.class);
        assertThat(in.taken).isEqualTo(1001);
    }

    /** An announcement of exactly one byte over the limit, and a stream that holds it, is refused, not returned. */
    @Test
    void anAnnouncementOneByteOverTheLimitIsRefused() {
        for (int max : new int[] {0, 1000, 65_536}) {
            CountingStream in = new CountingStream(random(max + 1));
            ByteArrayOutputStream seen = new ByteArrayOutputStream();

            assertThatThrownBy(() -> read(in, max, max + 1L, seen)).isInstanceOf(OversizedObjectException.class);
            assertThat(in.taken).isEqualTo(max + 1L);
            assertThat(seen.size()).isLessThanOrEqualTo(max);
        }
    }

    /**
     * With no announced size the read grows its array four times at a time up to the limit: a value of exactly the
     * limit (what Hybris asks for: the expected length) comes back whole after a one-byte probe for more, a shorter
     * one is cut to its length, and one byte over the limit is refused; every byte kept reaches the consumer once.
     */
    @Test
    void anUnknownLengthIsReadUpToTheLimitAndProbedForOneByteMore() throws IOException {
        for (int size : new int[] {0, 1, 65_536, 65_537, 300_000, 8 << 20}) {
            byte[] value = random(size);
            CountingStream exact = new CountingStream(value);
            ByteArrayOutputStream seen = new ByteArrayOutputStream();
            assertThat(read(exact, size, -1, seen)).isEqualTo(value);
            assertThat(seen.toByteArray()).isEqualTo(value);
            assertThat(exact.taken).isEqualTo(size);

            ByteArrayOutputStream seenLoose = new ByteArrayOutputStream();
            assertThat(read(new ByteArrayInputStream(value), 3L * size + 5, -1, seenLoose)).isEqualTo(value);
            assertThat(seenLoose.toByteArray()).isEqualTo(value);

            CountingStream over = new CountingStream(random(size + 1));
            ByteArrayOutputStream seenOver = new ByteArrayOutputStream();
            assertThatThrownBy(() -> read(over, size, -1, seenOver)).isInstanceOf(OversizedObjectException.class);
            assertThat(over.taken).isEqualTo(size + 1L);
            assertThat(seenOver.size()).isEqualTo(size);
        }
    }
}
