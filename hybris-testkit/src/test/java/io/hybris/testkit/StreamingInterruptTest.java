/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CallInterruptedException;
import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.ValueStream;
import io.hybris.ValueStreamException;
import io.hybris.VersionInfo;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Interrupted callers, a client closed under an open stream, and a stream closed mid-way: the documented exception
 * with the interrupt flag kept, nothing committed and no chunk left by an interrupted upload, and fetches cancelled.
 */
class StreamingInterruptTest {
    private static final int L = 8 * CHUNK + 1;
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final List<GatedCloudStore> gates = new ArrayList<>();
    private final List<HoldingGets> holds = new ArrayList<>();
    private final StreamingFixture fx = new StreamingFixture(c -> {
        // chunk puts from index 2 on wait at a gate; chunk gets from index 1 on are held while holding is on
        GatedCloudStore gate = GatedCloudStore.of(c, n -> StreamingFixture.chunkIndex(n).orElse(-1) >= 2);
        gate.setActive(false);
        gates.add(gate);
        HoldingGets hold = new HoldingGets(gate);
        holds.add(hold);
        return hold;
    });

    @AfterEach
    void close() {
        gates.forEach(g -> g.setActive(false));
        holds.forEach(h -> h.holding = false);
        holds.forEach(h -> h.release.countDown());
        fx.close();
    }

    /** Holds GETs of chunks 1 and up (interruptibly) while {@code holding}; counts those held and interrupted. */
    private static final class HoldingGets extends ForwardingCloudStore {
        volatile boolean holding;
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger held = new AtomicInteger();
        final AtomicInteger interrupted = new AtomicInteger();

        HoldingGets(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            if (holding && StreamingFixture.chunkIndex(objectKey).orElse(-1) >= 1) {
                held.incrementAndGet();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    interrupted.incrementAndGet();
                    Thread.currentThread().interrupt();
                    throw new TransientCloudException(id(), "get of " + objectKey + " interrupted", e);
                } finally {
                    held.decrementAndGet();
                }
            }
            return super.get(objectKey, maxBytes);
        }
    }

    private int held() {
        return holds.stream().mapToInt(h -> h.held.get()).sum();
    }

    private static void awaitBlocked(Thread t) {
        await().atMost(WAIT).until(() -> t.getState() == Thread.State.WAITING
                || t.getState() == Thread.State.TIMED_WAITING);
    }

    @Test
    void anUploadInterruptedWhileItsChunksAreInFlightCommitsNothingAndDeletesThem() throws Exception {
        Hybris h = fx.open(b -> b.chunkParallelUploads(2));
        gates.forEach(g -> g.setActive(true));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> flagKept = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                h.put(C, "k", new ByteArrayInputStream(value(L, 1)), L);
            } catch (Throwable e) {
                thrown.set(e);
                flagKept.set(Thread.currentThread().isInterrupted());
            }
        });
        t.start();
        await().atMost(WAIT).until(() -> gates.stream().mapToInt(GatedCloudStore::blockedCount).sum() >= 2);
        awaitBlocked(t); // waiting for chunk 2, whose copies are held at the gates

        t.interrupt();
        t.join(WAIT.toMillis());

        assertThat(t.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(CallInterruptedException.class);
        assertThat(flagKept.get()).isTrue();
        gates.forEach(g -> g.setActive(false)); // uploads held on the wire land now, and must be deleted
        assertThat(h.describe(C, "k")).isEmpty();
        await().atMost(WAIT).untilAsserted(() -> assertThat(fx.objectsOf("k")).isEmpty());
    }

    @Test
    void aReadInterruptedWhileWaitingForAChunkFailsWithCallInterrupted() throws Exception {
        Hybris h = fx.open(b -> b.chunkReadAhead(1));
        byte[] v = value(L, 2);
        h.put(C, "k", v);
        holds.forEach(x -> x.holding = true);
        AtomicReference<Throwable> streamed = new AtomicReference<>();
        AtomicReference<Throwable> whole = new AtomicReference<>();
        List<Boolean> flags = new ArrayList<>();
        Thread t = new Thread(() -> {
            try (ValueStream s = h.getStream(C, "k").orElseThrow()) {
                assertThat(s.readNBytes(10)).isEqualTo(Arrays.copyOf(v, 10));
                s.readAllBytes();
            } catch (Throwable e) {
                streamed.set(e);
                flags.add(Thread.interrupted()); // and clear it for the second call
            }
            try {
                h.get(C, "k");
            } catch (Throwable e) {
                whole.set(e);
                flags.add(Thread.currentThread().isInterrupted());
            }
        });
        t.start();
        await().atMost(WAIT).until(() -> held() >= 1);
        awaitBlocked(t);
        t.interrupt();
        await().atMost(WAIT).until(() -> streamed.get() != null);
        await().atMost(WAIT).until(() -> held() >= 1);
        awaitBlocked(t);
        t.interrupt();
        t.join(WAIT.toMillis());

        assertThat(streamed.get()).isInstanceOf(ValueStreamException.class)
                .hasCauseInstanceOf(CallInterruptedException.class);
        assertThat(whole.get()).isInstanceOf(CallInterruptedException.class);
        assertThat(flags).containsExactly(true, true);
    }

    @Test
    void closingTheClientFailsTheNextReadOfAnOpenStreamWithClientClosed() throws Exception {
        Hybris h = fx.open(b -> b.chunkReadAhead(1));
        byte[] v = value(L, 3);
        h.put(C, "k", new ByteArrayInputStream(v), L);
        ValueStream s = h.getStream(C, "k").orElseThrow();
        assertThat(s.readNBytes(CHUNK + 1)).isEqualTo(Arrays.copyOf(v, CHUNK + 1));

        h.close();

        // the reader's own ClientClosedException, not the generic "call in flight; outcome of a write unknown" one
        // a client closed mid-call wraps other failures in (ChunkedReader.checkOpen)
        assertThatThrownBy(s::read).isInstanceOf(ValueStreamException.class)
                .hasCauseInstanceOf(ClientClosedException.class)
                .cause().hasMessageContaining("the client was closed while the value was being read")
                .hasNoCause();
        assertThatThrownBy(() -> s.readNBytes(10)).isInstanceOf(ValueStreamException.class)
                .hasCauseInstanceOf(ClientClosedException.class);
        s.close();
    }

    @Test
    void closingAStreamMidWayCancelsItsFetches() throws Exception {
        Hybris h = fx.open(b -> b.chunkReadAhead(4));
        byte[] v = value(L, 4);
        VersionInfo put = h.put(C, "k", new ByteArrayInputStream(v), L);
        holds.forEach(x -> x.holding = true);
        ValueStream s = h.getStream(C, "k").orElseThrow();
        assertThat(s.version()).isEqualTo(put);
        assertThat(s.readNBytes(100)).isEqualTo(Arrays.copyOf(v, 100));
        await().atMost(WAIT).until(() -> held() == 4); // chunks 1-4: read-ahead 4 beyond chunk 0

        s.close();

        await().atMost(WAIT).until(() -> held() == 0);
        assertThat(holds.stream().mapToInt(x -> x.interrupted.get()).sum()).isEqualTo(4);
        assertThatThrownBy(s::read).isInstanceOf(IOException.class);
        s.close(); // idempotent
        fx.resetCalls();
        holds.forEach(x -> x.holding = false);
        assertThat(h.get(C, "k")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
    }

    /**
     * The caller's stream throwing {@link InterruptedIOException} (a socket or pipe read interrupted): the
     * put fails with {@link CallInterruptedException} naming the stream, keeps the interrupt flag for the caller,
     * and uploads nothing. Guards the flag's restore in ValueSource.
     */
    @Test
    void anInterruptedIoExceptionFromTheSourceFailsThePutAndKeepsTheInterruptFlag() {
        Hybris h = fx.open();
        byte[] v = value(L, 5);
        InputStream source = new BulkInputStream() {
            private int pos;

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (pos >= 2 * CHUNK) {
                    throw new InterruptedIOException("pipe read interrupted");
                }
                int n = Math.min(len, 2 * CHUNK - pos);
                System.arraycopy(v, pos, b, off, n);
                pos += n;
                return n;
            }
        };
        Throwable thrown;
        boolean flagKept;
        try {
            thrown = catchThrowable(() -> h.put(C, "k", source, L));
        } finally {
            flagKept = Thread.interrupted(); // and clear it for the rest of the test
        }

        assertThat(thrown).isInstanceOf(CallInterruptedException.class)
                .hasMessageContaining("interrupted while reading its stream")
                .hasCauseInstanceOf(InterruptedIOException.class);
        assertThat(flagKept).as("interrupt flag kept").isTrue();
        assertThat(h.describe(C, "k")).isEmpty();
        await().atMost(WAIT).untilAsserted(() -> assertThat(fx.objectsOf("k")).isEmpty());
    }

    /**
     * A thread interrupted while it reads a stream that does not react to interrupts (an in-memory or file stream
     * that returns normally): the put notices the flag once that read returns and fails with
     * {@link CallInterruptedException} before it uploads anything — no cloud receives a PUT — instead of
     * uploading the value's chunks first. Guards the interrupt check after each read of the source in ValueSource.
     */
    @Test
    void anInterruptArrivingWhileTheSourceIsReadStopsThePutBeforeAnyUpload() {
        Hybris h = fx.open();
        byte[] v = value(L, 6);
        InputStream source = new FilterInputStream(new ByteArrayInputStream(v)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                Thread.currentThread().interrupt(); // as if another thread interrupted this one meanwhile
                return n;
            }
        };
        fx.resetCalls();
        Throwable thrown;
        boolean flagKept;
        try {
            thrown = catchThrowable(() -> h.put(C, "k", source, L));
        } finally {
            flagKept = Thread.interrupted();
        }

        assertThat(thrown).isInstanceOf(CallInterruptedException.class)
                .hasMessageContaining("interrupted while reading its stream");
        assertThat(flagKept).as("interrupt flag kept").isTrue();
        assertThat(fx.recorded.stream().mapToLong(r -> r.count(RecordingCloudStore.Op.PUT)).sum())
                .as("PUTs sent to any cloud").isZero();
        assertThat(h.describe(C, "k")).isEmpty();
    }
}
