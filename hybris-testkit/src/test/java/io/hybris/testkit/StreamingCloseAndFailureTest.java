/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ConcurrentOverwriteException;
import io.hybris.Hybris;
import io.hybris.ValueSourceException;
import io.hybris.ValueStream;
import io.hybris.ValueStreamException;
import io.hybris.VersionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * How a {@link ValueStream} ends when a program closes it from another thread (cancelling a download) while a read
 * waits for a chunk, what reads after a failed read say, and a source that fails with an unchecked I/O exception.
 * The clouds are in memory; a gate holds the GETs of chunk 1 and later, interruptibly, as a socket read is aborted.
 */
class StreamingCloseAndFailureTest {
    private static final int L = 4 * CHUNK + 7;
    private final CallGate gate = new CallGate();
    private final StreamingFixture fx = new StreamingFixture(
            c -> new HeldGets(c, gate, name -> StreamingFixture.chunkIndex(name).orElse(-1) >= 1));

    @AfterEach
    void close() {
        gate.release();
        fx.close();
    }

    /** A stream whose first chunk was read, with the GET of the second held; and the reader blocked on it. */
    private record Blocked(ValueStream stream, InterruptibleCall read) {
    }

    private Blocked aReaderBlockedOnTheSecondChunk(Hybris h, byte[] v) throws IOException {
        h.put(C, "k", new ByteArrayInputStream(v), -1); // length unknown: full chunks, as the reads below assume
        gate.hold();
        ValueStream s = h.getStream(C, "k").orElseThrow();
        assertThat(s.readNBytes(CHUNK)).isEqualTo(Arrays.copyOf(v, CHUNK));
        InterruptibleCall read = InterruptibleCall.start(() -> {
            try {
                s.read();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> gate.held() == 1);
        return new Blocked(s, read);
    }

    /**
     * The close itself ends the blocked read (ChunkedReader's release cancels the fetch the reader waits for): the
     * idle timeout is minutes, so no deadline can end the read in the seconds the test waits for it.
     */
    @Test
    void closingFromAnotherThreadEndsTheBlockedReadAndTheDownloadItWaitsFor() throws Exception {
        Hybris h = fx.open(b -> b.chunkReadAhead(1).deadline(Duration.ofMinutes(10)));
        Blocked blocked = aReaderBlockedOnTheSecondChunk(h, value(L, 7));

        blocked.stream().close(); // the GET is held until the gate opens; the stream's idle deadline is 10 min
        await("the blocked read ended by the close, not by a deadline").atMost(Duration.ofSeconds(15))
                .until(() -> blocked.read().isDone());
        assertThat(blocked.read().join()).as("the blocked read fails at once, as reading a closed stream does")
                .isInstanceOf(UncheckedIOException.class).cause().hasMessage("stream closed");
        await("the held chunk GET was interrupted, not left to run").atMost(Duration.ofSeconds(10))
                .until(() -> gate.held() == 0);
    }

    @Test
    void aChunkArrivingAfterTheCloseIsNotReturned() throws Exception {
        Hybris h = fx.open(b -> b.chunkReadAhead(1));
        Blocked blocked = aReaderBlockedOnTheSecondChunk(h, value(L, 8));

        blocked.stream().close();
        gate.release(); // the cloud answers right after the close
        assertThat(blocked.read().join()).isInstanceOf(UncheckedIOException.class).cause()
                .hasMessage("stream closed");
    }

    @Test
    void aReadAfterAFailedReadThrowsThatFailureAgain() throws Exception {
        gate.release();
        Hybris h = fx.open(b -> b.chunkReadAhead(1));
        h.put(C, "k", new ByteArrayInputStream(value(L, 5)), L);
        try (ValueStream s = h.getStream(C, "k").orElseThrow()) {
            s.readNBytes(10);
            VersionInfo newer = h.put(C, "k", new ByteArrayInputStream(value(L, 6)), L);
            await().atMost(Duration.ofSeconds(20)).until(() -> fx.objectsOf("k").stream()
                    .allMatch(n -> n.contains("#" + newer.sequence() + "_")));
            Throwable first = catchThrowable(() -> s.readNBytes(L));
            assertThat(first).isInstanceOf(ValueStreamException.class)
                    .hasCauseInstanceOf(ConcurrentOverwriteException.class);
            Throwable again = catchThrowable(s::read);
            assertThat(again).as("not 'call failed unexpectedly: the stream is closed'")
                    .isInstanceOf(ValueStreamException.class).hasCauseInstanceOf(ConcurrentOverwriteException.class);
        }
    }

    /** A source failing with an unchecked wrapper of an IOException (lambdas, Files.lines, decoders). */
    @Test
    void aSourceThrowingUncheckedIoExceptionFailsThePutAsTheSourcesFailureAndCommitsNothing() {
        gate.release();
        Hybris h = fx.open();
        byte[] v = value(L, 3);
        InputStream failing = new InputStream() {
            private int pos;

            @Override
            public int read() {
                throw new UnsupportedOperationException("read(byte[], int, int) only");
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= 2 * CHUNK + 100) {
                    throw new UncheckedIOException(new IOException("the network share went away"));
                }
                int n = Math.min(len, 2 * CHUNK + 100 - pos);
                System.arraycopy(v, pos, b, off, n);
                pos += n;
                return n;
            }
        };
        Throwable t = catchThrowable(() -> h.put(C, "k", failing, L));
        assertThat(t).isInstanceOf(ValueSourceException.class).hasMessageContaining("the network share went away")
                .hasCauseInstanceOf(IOException.class);
        assertThat(h.describe(C, "k")).isEmpty();
        await().atMost(Duration.ofSeconds(20)).until(() -> fx.objectsOf("k").isEmpty());
    }
}
