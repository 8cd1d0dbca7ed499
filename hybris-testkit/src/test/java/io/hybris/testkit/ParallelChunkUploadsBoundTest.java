/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.VersionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/streaming.md, "Memory bounds": a put holds at most {@code hybris.chunk.parallel-uploads + 1} chunks, the
 * uploading ones and the one being read. With every chunk upload held at the clouds, a put with two parallel uploads
 * reads exactly three chunks of its stream and then waits: it never reads (and holds) a fourth before one of the
 * two uploads ends. Guards the in-flight bound in ChunkedWriter.
 */
class ParallelChunkUploadsBoundTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final List<GatedCloudStore> gates = new ArrayList<>();
    private final StreamingFixture fx = new StreamingFixture(c -> {
        GatedCloudStore gate = GatedCloudStore.of(c, n -> StreamingFixture.chunkIndex(n).isPresent());
        gates.add(gate);
        return gate;
    });

    @AfterEach
    void close() {
        gates.forEach(g -> g.setActive(false));
        fx.close();
    }

    /**
     * With chunk uploads held, the put waits (for its oldest upload) after reading 3 chunks' worth of its stream
     * with 2 uploads in flight; once the clouds answer it commits the whole value.
     */
    @Test
    void aPutReadsAtMostParallelUploadsPlusOneChunksAhead() throws Exception {
        Hybris h = fx.open(b -> b.chunkParallelUploads(2));
        byte[] v = value(6 * CHUNK + 5, 21);
        AtomicLong readFromSource = new AtomicLong();
        ByteArrayInputStream source = new ByteArrayInputStream(v) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                int n = super.read(b, off, len);
                readFromSource.addAndGet(Math.max(0, n));
                return n;
            }
        };
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                outcome.set(h.put(C, "k", source, -1)); // unknown length: full chunks of CHUNK bytes
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        t.start();

        // waiting for an upload (a timed wait) once it has read chunk 2: uploads of chunks 0 and 1 are held
        await().atMost(WAIT).until(() -> readFromSource.get() >= 3L * CHUNK
                && t.getState() == Thread.State.TIMED_WAITING);
        assertThat(readFromSource.get()).as("bytes read from the stream while 2 uploads are held")
                .isEqualTo(3L * CHUNK);

        gates.forEach(g -> g.setActive(false));
        t.join(WAIT.toMillis());
        assertThat(t.isAlive()).isFalse();
        assertThat(outcome.get()).isInstanceOf(VersionInfo.class);
        assertThat(readFromSource.get()).isEqualTo(v.length);
        assertThat(h.get(C, "k")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
    }
}
