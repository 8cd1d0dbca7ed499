/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.ValueStream;
import io.hybris.spi.CloudStore;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.PREFIX;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A chunked value read whole into memory fetches its chunks at once (the time to first byte does not matter
 * there), while a stream fetches the first chunk alone; and the manifest comes from a cloud once per version.
 */
class StreamingWholeReadTest {
    /**
     * Chunk GETs started in this phase, in flight now, the most seen at once, and the chunks whose GET no other
     * followed within 300 ms.
     */
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();
    private final java.util.Set<Long> alone = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private CloudStore counting(CloudStore delegate) {
        return new ForwardingCloudStore(delegate) {
            @Override
            public Optional<byte[]> get(String objectKey, long maxBytes) {
                Optional<VersionName.Chunk> chunk = VersionName.parseChunk(PREFIX, objectKey);
                if (chunk.isEmpty()) {
                    return super.get(objectKey, maxBytes);
                }
                started.incrementAndGet();
                most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    // hold the GET until another chunk GET has started, for at most 300 ms
                    long until = System.nanoTime() + 300_000_000L;
                    while (started.get() < 2 && System.nanoTime() < until) {
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    }
                    if (started.get() < 2) {
                        alone.add(chunk.get().index());
                    }
                    return super.get(objectKey, maxBytes);
                } finally {
                    inFlight.decrementAndGet();
                }
            }
        };
    }

    @Test
    void aWholeReadAsksForSeveralChunksAtOnceAndAStreamForTheFirstAlone() throws Exception {
        try (StreamingFixture fx = new StreamingFixture(this::counting)) {
            Hybris h = fx.open();
            byte[] v = value(4 * CHUNK, 7);
            h.put(C, "big", new ByteArrayInputStream(v), v.length);
            h = fx.open(b -> b.clientId("r1")); // a reader that has not seen the manifest (the writer keeps it)
            fx.resetCalls();

            assertThat(h.get(C, "big")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
            assertThat(most.get()).as("chunk GETs in flight at once for a byte[] GET").isGreaterThanOrEqualTo(2);
            assertThat(alone).as("chunk 0 is fetched with others").doesNotContain(0L);
            assertThat(fx.versionGets()).as("the manifest from a cloud once").isEqualTo(1);

            alone.clear();
            started.set(0);
            fx.resetCalls();
            try (ValueStream s = h.getStream(C, "big").orElseThrow()) {
                assertThat(s.readAllBytes()).isEqualTo(v);
            }
            assertThat(alone).as("a stream's first chunk is fetched alone").contains(0L);
            assertThat(fx.versionGets()).as("the manifest from memory").isZero();
        }
    }
}
