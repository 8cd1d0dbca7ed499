/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.ValueSourceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Sources that break the {@code InputStream} contract in ways the put cannot mistake for a value: a read that throws
 * an {@code Error} mid-way through a chunked put, and a read that reports more bytes than it was asked for.
 */
class MisbehavingSourceTest {
    private static final byte[] V = value(4 * CHUNK, 5);
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    /**
     * An {@code Error} (an assertion in the caller's decoder, a stack overflow) thrown by the source after two chunks
     * were stored: the put fails with it, and the chunks it stored are deleted by the failed put as for any failing
     * source, not left for the orphan sweep (which, with the default grace, would keep them for hours).
     */
    @Test
    void aSourceThrowingAnErrorMidwayLeavesNoChunkBehind() {
        Hybris h = fx.open(b -> b.chunkParallelUploads(1));
        InputStream failing = new InputStream() {
            private final ByteArrayInputStream in = new ByteArrayInputStream(V);
            private int served;

            @Override
            public int read() {
                throw new AssertionError("not used");
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (served >= 2 * CHUNK + 10) {
                    throw new AssertionError("decoder invariant broken");
                }
                int n = in.read(b, off, Math.min(len, 2 * CHUNK + 10 - served));
                served += n;
                return n;
            }
        };

        Throwable e = catchThrowable(() -> h.put(C, "k", failing, V.length));

        assertThat(e).hasMessageContaining("decoder invariant broken");
        assertThat(h.get(C, "k")).isEmpty();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(fx.objectsOf("k"))
                .as("chunks of the failed put").isEmpty());
    }

    /**
     * A source of unknown length whose read reports 5 bytes more than it was asked for (it copied 1000): the put must
     * refuse it as the source's failure, not commit a value with 5 bytes the source never wrote.
     */
    @Test
    void aSourceReportingMoreBytesThanAskedIsRefusedNotCommitted() {
        Hybris h = fx.open();
        InputStream liar = new InputStream() {
            private final ByteArrayInputStream in = new ByteArrayInputStream(V);
            private int reads;

            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (len < 0) {
                    return 0; // what a lenient stream answers to the negative length the lie leads to
                }
                int n = in.read(b, off, Math.min(len, 1000));
                return ++reads == 3 && n > 0 ? len + 5 : n; // claims more than the buffer space it was given
            }
        };

        Throwable e = catchThrowable(() -> h.put(C, "k", liar, -1));

        assertThat(h.get(C, "k").map(v -> v.length)).as("length of a value committed from a lying source").isEmpty();
        assertThat(e).isInstanceOf(ValueSourceException.class).hasMessageContaining("asked for");
    }
}
