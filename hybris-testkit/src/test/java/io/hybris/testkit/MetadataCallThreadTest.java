/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CallInterruptedException;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.MetadataUnavailableException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.WatchedRead;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Metadata calls run on the caller's thread exactly when the store bounds its call time below the remaining
 * deadline ({@code MetadataStore.callTimeBound()}), and on a pool thread otherwise; listings always on a pool
 * thread. An interrupt of a call made in place is reported as it is off the caller's thread.
 */
class MetadataCallThreadTest {

    /** Records which threads read, update and list; reports the given call-time bound. */
    private static class ThreadRecordingStore implements MetadataStore {
        private final InMemoryMetadataStore delegate = new InMemoryMetadataStore();
        private final Optional<Duration> bound;
        final Set<String> singleCallThreads = ConcurrentHashMap.newKeySet();
        final Set<String> listThreads = ConcurrentHashMap.newKeySet();

        ThreadRecordingStore(Optional<Duration> bound) {
            this.bound = bound;
        }

        private void single() {
            singleCallThreads.add(Thread.currentThread().getName());
        }

        @Override
        public Optional<VersionedValue> read(MetadataKey key) {
            single();
            return delegate.read(key);
        }

        @Override
        public WatchedRead readAndWatch(MetadataKey key, Runnable onChange) {
            single();
            return delegate.readAndWatch(key, onChange);
        }

        @Override
        public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
            single();
            delegate.conditionalUpdate(update);
        }

        @Override
        public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
            single();
            delegate.conditionalUpdateAll(updates);
        }

        @Override
        public MetadataPage list(String container, String prefix, String startAfter, int limit) {
            listThreads.add(Thread.currentThread().getName());
            return delegate.list(container, prefix, startAfter, limit);
        }

        @Override
        public List<String> containers() {
            return delegate.containers();
        }

        @Override
        public Optional<Duration> callTimeBound() {
            return bound;
        }

        @Override
        public String describe() {
            return "thread-recording " + delegate.describe();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    private static void exercise(ThreadRecordingStore store, Duration deadline) {
        try (Hybris h = Hybris.open(HybrisConfig.builder().f(1).metadataStore(store).deadline(deadline)
                .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                .probeInterval(Duration.ZERO).build())) {
            h.put("box", "k", "v".getBytes(StandardCharsets.UTF_8));
            assertThat(h.get("box", "k")).hasValue("v".getBytes(StandardCharsets.UTF_8));
            assertThat(h.list("box")).containsExactly("k");
        }
    }

    @Test
    void aBoundedStoreIsCalledOnTheCallersThread() {
        ThreadRecordingStore store = new ThreadRecordingStore(Optional.of(Duration.ofSeconds(1)));

        exercise(store, Duration.ofSeconds(20));

        assertThat(store.singleCallThreads).containsOnly(Thread.currentThread().getName());
        assertThat(store.listThreads).isNotEmpty().doesNotContain(Thread.currentThread().getName());
    }

    @Test
    void aBoundAboveTheDeadlineKeepsTheHandOff() {
        ThreadRecordingStore store = new ThreadRecordingStore(Optional.of(Duration.ofSeconds(60)));

        exercise(store, Duration.ofSeconds(20));

        assertThat(store.singleCallThreads).isNotEmpty().doesNotContain(Thread.currentThread().getName());
    }

    @Test
    void anInterruptOfACallInPlaceIsReportedAsCallInterruptedExceptionWhateverTheStoreMadeOfIt() throws Exception {
        CountDownLatch inUpdate = new CountDownLatch(1);
        ThreadRecordingStore store = new ThreadRecordingStore(Optional.of(Duration.ofSeconds(1))) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) {
                inUpdate.countDown();
                try {
                    new CountDownLatch(1).await(); // until interrupted
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // as the ZooKeeper and Consul stores map an interrupt
                    throw new MetadataUnavailableException("update interrupted; a write's outcome is unknown", e);
                }
            }
        };
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flag = new AtomicBoolean();
        try (Hybris h = Hybris.open(HybrisConfig.builder().f(1).metadataStore(store).deadline(Duration.ofSeconds(20))
                .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                .probeInterval(Duration.ZERO).build())) {
            Thread writer = new Thread(() -> {
                try {
                    h.put("box", "k", "v".getBytes(StandardCharsets.UTF_8));
                } catch (Throwable t) {
                    thrown.set(t);
                    flag.set(Thread.currentThread().isInterrupted());
                }
            }, "interrupted-writer");
            writer.start();
            assertThat(inUpdate.await(10, TimeUnit.SECONDS)).isTrue();
            writer.interrupt();
            writer.join(10_000);
            assertThat(writer.isAlive()).isFalse();
        }
        assertThat(store.singleCallThreads).contains("interrupted-writer");
        assertThat(thrown.get()).isInstanceOf(CallInterruptedException.class)
                .hasCauseInstanceOf(MetadataUnavailableException.class);
        assertThat(((CallInterruptedException) thrown.get()).outcomeUnknown()).isTrue();
        assertThat(flag).as("interrupt flag kept").isTrue();
    }

    @Test
    void anUnboundedStoreIsCalledOnAPoolThread() {
        ThreadRecordingStore store = new ThreadRecordingStore(Optional.empty());

        exercise(store, Duration.ofSeconds(20));

        assertThat(store.singleCallThreads).isNotEmpty().doesNotContain(Thread.currentThread().getName());
    }
}
