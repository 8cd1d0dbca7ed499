/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.ValueStream;
import io.hybris.ValueStreamException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.time.Duration;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Value streams a program forgets to close, as programs do ({@code readAllBytes()} on a stream never closed, a
 * download given up half-way): the client kept each one's reader, with its manifest and the chunks it had read
 * ahead, until the client closed, so a long-running client leaked memory per such stream. A stream still held is
 * still closed by the client's close.
 */
class UnclosedValueStreamTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    /** The reader behind a stream, weakly: cleared once nothing but the client could reach it. */
    private static WeakReference<InputStream> readerOf(ValueStream s) throws ReflectiveOperationException {
        Field bytes = ValueStream.class.getDeclaredField("bytes");
        bytes.setAccessible(true);
        return new WeakReference<>((InputStream) bytes.get(s));
    }

    private static void awaitCollected(WeakReference<?> ref) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
            System.gc();
            return ref.get() == null;
        });
    }

    @Test
    void aStreamReadToTheEndButNeverClosedIsNotKeptByTheClient() throws Exception {
        Hybris h = fx.open();
        byte[] v = StreamingFixture.value(5 * CHUNK + 17, 1);
        h.put(C, "k", v);
        ValueStream s = h.getStream(C, "k").orElseThrow();
        assertThat(s.readAllBytes()).isEqualTo(v);
        WeakReference<InputStream> reader = readerOf(s);
        s = null;
        awaitCollected(reader);
        assertThat(h.get(C, "k")).contains(v);
    }

    @Test
    void aStreamGivenUpHalfWayIsNotKeptByTheClient() throws Exception {
        Hybris h = fx.open(b -> b.chunkReadAhead(3));
        byte[] v = StreamingFixture.value(8 * CHUNK, 2);
        h.put(C, "k", v);
        ValueStream s = h.getStream(C, "k").orElseThrow();
        assertThat(s.readNBytes(CHUNK + 5)).hasSize(CHUNK + 5);
        WeakReference<InputStream> reader = readerOf(s);
        s = null;
        awaitCollected(reader);
        assertThat(h.get(C, "k")).contains(v);
    }

    @Test
    void aStreamStillHeldIsClosedByTheClientsClose() throws Exception {
        Hybris h = fx.open();
        h.put(C, "k", StreamingFixture.value(4 * CHUNK, 3));
        ValueStream s = h.getStream(C, "k").orElseThrow();
        assertThat(s.readNBytes(10)).hasSize(10);
        System.gc();
        h.close();
        assertThatThrownBy(() -> s.readNBytes(2 * CHUNK)).isInstanceOf(ValueStreamException.class)
                .hasCauseInstanceOf(ClientClosedException.class);
        s.close();
        assertThatThrownBy(s::read).isInstanceOf(IOException.class).hasMessage("stream closed");
    }
}
