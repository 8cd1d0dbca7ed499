/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.ValueStream;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A chunked value with one faulty cloud of three (f=1): a cloud corrupting one chunk, a cloud down during the
 * upload, a cloud slower than its timer. Reads return the value, and each fault costs only reads of the chunks it
 * touches: per chunk, exactly which clouds were asked.
 */
class StreamingFaultTest {
    private static final int L = 6 * CHUNK + 100;
    private static final int BAD = 2;

    private StreamingFixture fx;
    private final EventRecorder events = new EventRecorder();

    @AfterEach
    void close() {
        fx.close();
    }

    /** Corrupts the first GET of chunk {@value #BAD} of any version, on whichever cloud is asked first. */
    private static final class CorruptsFirstReadOfOneChunk extends ForwardingCloudStore {
        private final AtomicReference<String> corruptedOn;

        CorruptsFirstReadOfOneChunk(CloudStore delegate, AtomicReference<String> corruptedOn) {
            super(delegate);
            this.corruptedOn = corruptedOn;
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            Optional<byte[]> got = super.get(objectKey, maxBytes);
            if (got.isPresent() && StreamingFixture.chunkIndex(objectKey).orElse(-1) == BAD
                    && corruptedOn.compareAndSet(null, id())) {
                byte[] bad = got.get().clone();
                bad[bad.length / 2] ^= 1;
                return Optional.of(bad);
            }
            return got;
        }
    }

    @Test
    void aCorruptChunkCostsExactlyOneMoreReadOfThatChunkFromAnotherCloud() throws Exception {
        AtomicReference<String> corruptedOn = new AtomicReference<>();
        fx = new StreamingFixture(c -> new CorruptsFirstReadOfOneChunk(c, corruptedOn));
        byte[] v = value(L, 1);
        fx.open().put(C, "big", new ByteArrayInputStream(v), L);
        Hybris h = fx.open(b -> b.clientId("r1").listener(events)); // it reads the manifest from a cloud
        fx.resetCalls();

        try (ValueStream s = h.getStream(C, "big").orElseThrow()) {
            assertThat(s.readAllBytes()).isEqualTo(v);
        }

        Map<Integer, List<String>> gets = fx.chunkGets();
        assertThat(gets.keySet()).containsExactly(0, 1, 2, 3, 4, 5, 6);
        gets.forEach((chunk, clouds) -> {
            if (chunk == BAD) {
                assertThat(clouds).as("chunk %d", chunk).hasSize(2).doesNotHaveDuplicates()
                        .contains(corruptedOn.get());
            } else {
                assertThat(clouds).as("chunk %d", chunk).hasSize(1);
            }
        });
        assertThat(fx.versionGets()).as("the manifest, once: no restart").isEqualTo(1);
        assertThat(events.restarts()).isZero();
        assertThat(events.worstCaseGets()).isZero();
        // the byte[] read of the same value: the corruption is spent, every chunk read once
        fx.resetCalls();
        assertThat(h.get(C, "big")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
        assertThat(fx.chunkGets().values()).allSatisfy(clouds -> assertThat(clouds).hasSize(1));
    }

    @Test
    void aCloudDownDuringTheUploadHoldsNoChunkAndIsNeverAskedForOne() throws Exception {
        List<UnavailableCloudStore> down = new java.util.ArrayList<>();
        fx = new StreamingFixture(c -> {
            if (!c.id().equals("c0")) {
                return c;
            }
            UnavailableCloudStore u = UnavailableCloudStore.of(c);
            down.add(u);
            return u;
        });
        Hybris h = fx.open(b -> b.listener(events));
        byte[] v = value(L, 2);

        h.put(C, "big", new ByteArrayInputStream(v), -1);

        Map<String, List<Integer>> chunks = fx.chunksByCloud();
        assertThat(chunks.get("c0")).isEmpty();
        assertThat(chunks.get("c1")).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(chunks.get("c2")).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(fx.objects().get("c0")).isEmpty();
        assertThat(h.describe(C, "big").orElseThrow().clouds()).containsExactlyInAnyOrder("c1", "c2");

        for (boolean healed : new boolean[] {false, true}) {
            down.get(0).setActive(!healed);
            fx.resetCalls();
            try (ValueStream s = h.getStream(C, "big").orElseThrow()) {
                assertThat(s.readAllBytes()).as("healed=%s", healed).isEqualTo(v);
            }
            Map<Integer, List<String>> gets = fx.chunkGets();
            assertThat(gets.keySet()).containsExactly(0, 1, 2, 3, 4, 5, 6);
            assertThat(gets.values()).allSatisfy(clouds -> assertThat(clouds).hasSize(1).doesNotContain("c0"));
        }
        assertThat(events.worstCaseGets()).isZero();
    }

    @Test
    void aCloudSlowerThanItsTimerDoesNotHoldTheStreamBack() throws Exception {
        Duration delay = Duration.ofSeconds(4);
        List<SlowCloudStore> slow = new java.util.ArrayList<>();
        fx = new StreamingFixture(c -> {
            if (!c.id().equals("c0")) {
                return c;
            }
            SlowCloudStore s = SlowCloudStore.ofGets(c, delay);
            slow.add(s);
            return s;
        });
        Hybris h = fx.open(b -> b.timerInitial(Duration.ofMillis(200)).timerMin(Duration.ofMillis(100))
                .listener(events));
        byte[] v = value(L, 3);
        h.put(C, "big", v);
        assertThat(fx.chunksByCloud().get("c0")).as("c0 holds chunks to be slow with").isNotEmpty();
        fx.resetCalls();

        long t0 = System.nanoTime();
        try (ValueStream s = h.getStream(C, "big").orElseThrow()) {
            assertThat(s.readAllBytes()).isEqualTo(v);
        } finally {
            slow.get(0).setActive(false);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);

        // every chunk came from a cloud that answered in time: c0 at most started (once per chunk), never awaited
        Map<Integer, List<String>> gets = fx.chunkGets();
        assertThat(gets.keySet()).containsExactly(0, 1, 2, 3, 4, 5, 6);
        gets.forEach((chunk, clouds) -> {
            assertThat(clouds).as("chunk %d", chunk).doesNotHaveDuplicates().hasSizeBetween(1, 2);
            assertThat(new HashSet<>(clouds)).as("chunk %d", chunk).containsAnyOf("c1", "c2");
        });
        assertThat(took).as("the stream did not wait for the slow cloud").isLessThan(delay);
        assertThat(events.worstCaseGets()).isZero();
    }
}
