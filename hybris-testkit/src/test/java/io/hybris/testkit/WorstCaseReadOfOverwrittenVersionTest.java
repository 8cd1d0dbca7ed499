/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worst-case GET whose version is overwritten while a request for it still runs: the new round reads the new
 * version, and the old version's request (verified against the old hash) must not answer for it. Were the old
 * request kept (the round skips a cloud whose request still runs), its answer, the overwritten value, would be
 * returned for the new version, after the overwrite was acknowledged: a stale read.
 */
class WorstCaseReadOfOverwrittenVersionTest {
    private static final byte[] V1 = "the first value, overwritten while read".getBytes(StandardCharsets.UTF_8);
    private static final byte[] V2 = "the second value, the only one to return".getBytes(StandardCharsets.UTF_8);

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final InMemoryCloudStore raw0 = new InMemoryCloudStore("c0");
    private final InMemoryCloudStore raw1 = new InMemoryCloudStore("c1");
    private final InMemoryCloudStore raw2 = new InMemoryCloudStore("c2");
    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private Hybris a;
    private Hybris b;

    @AfterEach
    void close() {
        held1.release.countDown();
        reader.shutdownNow();
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    /** c0 for the reader: corrupt answers; notes when it is first asked for an object other than the first. */
    private final ByzantineCloudStore corrupt0 = ByzantineCloudStore.of(raw0);
    private final CountDownLatch askedAnotherObject = new CountDownLatch(1);
    private final CloudStore watched0 = new ForwardingCloudStore(corrupt0) {
        private final AtomicReference<String> first = new AtomicReference<>();

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            first.compareAndSet(null, objectKey);
            if (!first.get().equals(objectKey)) {
                askedAnotherObject.countDown();
            }
            return super.get(objectKey, maxBytes);
        }
    };

    /** c1 for the reader: while armed, its GETs wait until released (or cancelled). */
    private final HeldGets1 held1 = new HeldGets1(raw1);

    private static final class HeldGets1 extends ForwardingCloudStore {
        final AtomicInteger holding = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger entered = new AtomicInteger();

        HeldGets1(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            if (holding.getAndDecrement() > 0) {
                entered.incrementAndGet();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TransientCloudException("c1", "GET cancelled", e);
                }
            }
            return super.get(objectKey, maxBytes);
        }
    }

    /** c2 for the writer: refuses puts, so the writer's version lands on c0 and c1. */
    private final CloudStore refusing2 = new ForwardingCloudStore(raw2) {
        @Override
        public void put(String objectKey, byte[] value) {
            throw new TransientCloudException("c2", "put refused by the test", null);
        }
    };

    private static HybrisConfig.Builder config(InMemoryMetadataStore metadata, String clientId) {
        return HybrisConfig.builder().f(1).metadataStore(metadata).clientId(clientId)
                .deadline(Duration.ofSeconds(30)).timerMin(Duration.ofMillis(300))
                .timerInitial(Duration.ofMillis(300)).probeInterval(Duration.ZERO).gcEnabled(false);
    }

    @Test
    void theOverwrittenVersionsRequestDoesNotAnswerForTheNewVersion() throws Exception {
        a = Hybris.open(config(metadata, "a").cloud(watched0).cloud(held1).cloud(raw2).build());
        b = Hybris.open(config(metadata, "b").cloud(raw0).cloud(raw1).cloud(refusing2).build());
        assertThat(a.put("box", "k", V1).clouds()).containsExactlyInAnyOrder("c0", "c1");
        corrupt0.mode(ByzantineCloudStore.Mode.CORRUPT);
        held1.holding.set(2); // the common case's request and the worst case's first

        CompletableFuture<Optional<byte[]>> got = CompletableFuture.supplyAsync(() -> a.get("box", "k"), reader);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> held1.entered.get() == 2);
        assertThat(b.put("box", "k", V2).clouds()).containsExactlyInAnyOrder("c0", "c1");
        // the reader's next round reads the new version (its first request to c0 for it)
        assertThat(askedAnotherObject.await(20, TimeUnit.SECONDS)).as("a round for the new version").isTrue();
        held1.release.countDown(); // a request for the old version still running would now answer

        assertThat(got.get(30, TimeUnit.SECONDS)).hasValueSatisfying(v -> assertThat(v).isEqualTo(V2));
    }
}
