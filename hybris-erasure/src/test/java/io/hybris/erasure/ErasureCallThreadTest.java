/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ReadSettings;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.testkit.ForwardingCloudStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Erasure-coded chunks follow the same rule as replicated copies: moved on the caller's thread when the cloud
 * bounds its call time below the request's timer ({@code CloudStore.callTimeBound()}), on I/O threads otherwise.
 */
class ErasureCallThreadTest {

    /** An in-memory cloud that records the threads of its puts and gets and reports the given bound. */
    private static final class ThreadRecordingCloud extends ForwardingCloudStore {
        private final Optional<Duration> bound;
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        ThreadRecordingCloud(String id, Optional<Duration> bound) {
            super(new InMemoryCloudStore(id));
            this.bound = bound;
        }

        @Override
        public void put(String objectKey, byte[] value) {
            threads.add(Thread.currentThread().getName());
            super.put(objectKey, value);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            threads.add(Thread.currentThread().getName());
            return super.get(objectKey, maxBytes);
        }

        @Override
        public Optional<Duration> callTimeBound() {
            return bound;
        }
    }

    private static List<ThreadRecordingCloud> putAndGet(Optional<Duration> bound) {
        List<ThreadRecordingCloud> clouds = List.of(new ThreadRecordingCloud("c0", bound),
                new ThreadRecordingCloud("c1", bound), new ThreadRecordingCloud("c2", bound));
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(2)
                .reads(ReadSettings.builder().hedge(false).build())
                .timerMin(Duration.ofSeconds(1)).timerInitial(Duration.ofSeconds(1))
                .probeInterval(Duration.ZERO).gcEnabled(false);
        clouds.forEach(b::cloud);
        byte[] value = new byte[10_000];
        new java.util.Random(7).nextBytes(value);
        try (Hybris h = Hybris.open(b.build())) {
            h.put("box", "k", value);
            assertThat(h.get("box", "k")).hasValue(value);
        }
        return clouds;
    }

    @Test
    void chunksOfBoundedCloudsMoveOnTheCallersThread() {
        for (ThreadRecordingCloud c : putAndGet(Optional.of(Duration.ofMillis(100)))) {
            assertThat(c.threads).containsOnly(Thread.currentThread().getName());
        }
    }

    @Test
    void chunksOfUnboundedCloudsMoveOnIoThreads() {
        for (ThreadRecordingCloud c : putAndGet(Optional.empty())) {
            assertThat(c.threads).isNotEmpty().doesNotContain(Thread.currentThread().getName());
        }
    }
}
