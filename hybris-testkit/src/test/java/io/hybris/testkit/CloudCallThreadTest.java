/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ReadSettings;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import io.hybris.spi.support.InterruptibleCalls;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cloud requests run on the caller's thread exactly when the cloud bounds its call time below both the request's
 * fallback timer and the remaining deadline ({@code CloudStore.callTimeBound()}), and on an I/O thread otherwise;
 * a failing in-place request falls back to the next cloud as a handed-off one does. A driver call that can be aborted
 * runs on the I/O thread itself, and is aborted when the request is no longer needed. (Erasure-coded chunks:
 * {@code ErasureCallThreadTest} in hybris-erasure.)
 */
class CloudCallThreadTest {
    private static final byte[] VALUE = "value".getBytes(StandardCharsets.UTF_8);

    /** An in-memory cloud that records the threads of its puts and gets, reports a bound, and may fail. */
    private static final class RecordingCloud extends ForwardingCloudStore {
        private final Optional<Duration> bound;
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final AtomicInteger puts = new AtomicInteger();
        final AtomicInteger gets = new AtomicInteger();
        volatile boolean failing;

        RecordingCloud(String id, Optional<Duration> bound) {
            super(new InMemoryCloudStore(id));
            this.bound = bound;
        }

        @Override
        public void put(String objectKey, byte[] value) {
            threads.add(Thread.currentThread().getName());
            puts.incrementAndGet();
            if (failing) {
                throw new TransientCloudException(id(), "injected put failure");
            }
            super.put(objectKey, value);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            threads.add(Thread.currentThread().getName());
            gets.incrementAndGet();
            if (failing) {
                throw new TransientCloudException(id(), "injected get failure");
            }
            return super.get(objectKey, maxBytes);
        }

        @Override
        public Optional<Duration> callTimeBound() {
            return bound;
        }
    }

    private static List<RecordingCloud> clouds(Optional<Duration> bound) {
        return List.of(new RecordingCloud("c0", bound), new RecordingCloud("c1", bound),
                new RecordingCloud("c2", bound));
    }

    private static Hybris open(List<RecordingCloud> clouds, Duration deadline, Duration timerMin,
                               ErasurePolicy policy) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .deadline(deadline).reads(ReadSettings.builder().hedge(false).build())
                .timerMin(timerMin).timerInitial(timerMin).erasurePolicy(policy)
                .probeInterval(Duration.ZERO).gcEnabled(false);
        clouds.forEach(b::cloud);
        return Hybris.open(b.build());
    }

    private static void putAndGet(List<RecordingCloud> clouds, Duration deadline, Duration timerMin,
                                  ErasurePolicy policy) {
        try (Hybris h = open(clouds, deadline, timerMin, policy)) {
            h.put("box", "k", VALUE);
            assertThat(h.get("box", "k")).hasValue(VALUE);
        }
    }

    private static String caller() {
        return Thread.currentThread().getName();
    }

    @Test
    void boundedCloudsAreCalledOnTheCallersThread() {
        List<RecordingCloud> clouds = clouds(Optional.of(Duration.ofMillis(100)));

        putAndGet(clouds, Duration.ofSeconds(20), Duration.ofSeconds(1), ErasurePolicy.REPLICATION);

        assertThat(clouds.get(0).threads).containsOnly(caller());
        assertThat(clouds.get(1).threads).containsOnly(caller());
        assertThat(clouds.get(0).puts.get() + clouds.get(1).puts.get() + clouds.get(2).puts.get()).isEqualTo(2);
    }

    @Test
    void aBoundNotBelowTheTimerKeepsTheHandOff() {
        List<RecordingCloud> clouds = clouds(Optional.of(Duration.ofSeconds(1)));

        putAndGet(clouds, Duration.ofSeconds(20), Duration.ofSeconds(1), ErasurePolicy.REPLICATION);

        assertThat(clouds.get(0).threads).isNotEmpty().doesNotContain(caller());
        assertThat(clouds.get(1).threads).isNotEmpty().doesNotContain(caller());
    }

    @Test
    void aBoundNotBelowTheRemainingDeadlineKeepsTheHandOff() {
        List<RecordingCloud> clouds = clouds(Optional.of(Duration.ofSeconds(3)));

        putAndGet(clouds, Duration.ofSeconds(2), Duration.ofSeconds(10), ErasurePolicy.REPLICATION);

        assertThat(clouds.get(0).threads).isNotEmpty().doesNotContain(caller());
        assertThat(clouds.get(1).threads).isNotEmpty().doesNotContain(caller());
    }

    @Test
    void unboundedCloudsAreCalledOnIoThreads() {
        List<RecordingCloud> clouds = clouds(Optional.empty());

        putAndGet(clouds, Duration.ofSeconds(20), Duration.ofSeconds(1), ErasurePolicy.REPLICATION);

        assertThat(clouds.get(0).threads).isNotEmpty().doesNotContain(caller());
        assertThat(clouds.get(1).threads).isNotEmpty().doesNotContain(caller());
    }

    @Test
    void aFailingInPlaceRequestFallsBackToTheNextCloud() {
        List<RecordingCloud> clouds = clouds(Optional.of(Duration.ofMillis(100)));
        try (Hybris h = open(clouds, Duration.ofSeconds(20), Duration.ofSeconds(1),
                ErasurePolicy.REPLICATION)) {
            clouds.get(0).failing = true;

            h.put("box", "k", VALUE);

            // c0 refused: the PUT was stored on c1 and c2, every attempt on the caller's thread
            assertThat(clouds.get(0).puts).hasValue(1);
            assertThat(clouds.get(1).puts).hasValue(1);
            assertThat(clouds.get(2).puts).hasValue(1);

            clouds.get(0).failing = false;
            assertThat(h.get("box", "k")).hasValue(VALUE);
            RecordingCloud first = clouds.get(1).gets.get() == 1 ? clouds.get(1) : clouds.get(2);
            RecordingCloud second = first == clouds.get(1) ? clouds.get(2) : clouds.get(1);
            assertThat(first.gets).hasValue(1);
            assertThat(second.gets).hasValue(0);
            first.failing = true;

            assertThat(h.get("box", "k")).hasValue(VALUE);

            // the cloud asked first failed, the other holder answered; c0, which has no copy, was never asked
            assertThat(first.gets).hasValue(2);
            assertThat(second.gets).hasValue(1);
            assertThat(clouds.get(0).gets).hasValue(0);
        }
        for (CloudStore c : clouds) {
            assertThat(((RecordingCloud) c).threads).containsOnly(caller());
        }
    }

    /**
     * With the defaults (hedged reads on, at least 50 ms before a hedge), the plain in-memory clouds' bound is below
     * every timer, so their GETs run in place as their PUTs do. Their bound was once above the hedge delay, which
     * sent every in-memory GET to an I/O thread and back (the listener hears each request on the thread it ran on).
     * The superseded version is deleted from them in place too, before the PUT that replaced it returns.
     */
    @Test
    void inMemoryCloudsAreReadAndWrittenInPlaceWithTheDefaultSettings() {
        java.util.Map<io.hybris.HybrisListener.CloudOperation, Set<String>> threads = new ConcurrentHashMap<>();
        io.hybris.HybrisListener recorder = new io.hybris.HybrisListener() {
            @Override
            public void cloudRequest(CloudRequest request) {
                threads.computeIfAbsent(request.operation(), op -> ConcurrentHashMap.newKeySet())
                        .add(Thread.currentThread().getName());
            }
        };
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                .cloud(new InMemoryCloudStore("c2")).probeInterval(Duration.ZERO).listener(recorder);
        try (Hybris h = Hybris.open(b.build())) {
            h.put("box", "k", VALUE);
            // the hedge delay replaces the paper's timer once a cloud has 16 measured reads: read past that
            for (int i = 0; i < 40; i++) {
                assertThat(h.get("box", "k")).hasValue(VALUE);
            }
            h.put("box", "k", "newer".getBytes(StandardCharsets.UTF_8));
            // deleted on this thread before the PUT returned: two clouds held the version it replaced
            assertThat(deletes(threads)).containsOnly(caller()).hasSize(1);
        }

        assertThat(threads.get(io.hybris.HybrisListener.CloudOperation.PUT)).containsOnly(caller());
        assertThat(threads.get(io.hybris.HybrisListener.CloudOperation.GET)).containsOnly(caller());
    }

    private static Set<String> deletes(java.util.Map<io.hybris.HybrisListener.CloudOperation, Set<String>> threads) {
        return threads.getOrDefault(io.hybris.HybrisListener.CloudOperation.DELETE, Set.of());
    }

    /** A cloud that reports no bound (a real one, or a decorator that may hang) keeps its deletes in the background. */
    @Test
    void unboundedCloudsAreDeletedFromInTheBackground() {
        java.util.Map<io.hybris.HybrisListener.CloudOperation, Set<String>> threads = new ConcurrentHashMap<>();
        AtomicInteger deleted = new AtomicInteger();
        io.hybris.HybrisListener recorder = new io.hybris.HybrisListener() {
            @Override
            public void cloudRequest(CloudRequest request) {
                threads.computeIfAbsent(request.operation(), op -> ConcurrentHashMap.newKeySet())
                        .add(Thread.currentThread().getName());
                if (request.operation() == io.hybris.HybrisListener.CloudOperation.DELETE) {
                    deleted.incrementAndGet();
                }
            }
        };
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .probeInterval(Duration.ZERO).listener(recorder);
        clouds(Optional.empty()).forEach(b::cloud);
        try (Hybris h = Hybris.open(b.build())) {
            h.put("box", "k", VALUE);
            h.put("box", "k", "newer".getBytes(StandardCharsets.UTF_8));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> deleted.get() == 2);
        }

        assertThat(deletes(threads)).isNotEmpty().doesNotContain(caller());
    }

    /**
     * A driver in the shape of the S3 one: each request goes through {@link InterruptibleCalls} with an abort action,
     * and a hung GET is blocking I/O that ignores interrupts and ends only when its request is aborted.
     */
    private static final class AbortableCloud extends ForwardingCloudStore {
        private final InterruptibleCalls calls;
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final CountDownLatch aborted = new CountDownLatch(1);
        final CountDownLatch hung = new CountDownLatch(1);
        volatile boolean hang;

        AbortableCloud(String id) {
            super(new InMemoryCloudStore(id));
            this.calls = new InterruptibleCalls(id, "driver-worker-" + id + "-");
        }

        @Override
        public void put(String objectKey, byte[] value) {
            calls.call("put of '" + objectKey + "'", () -> {
                threads.add(Thread.currentThread().getName());
                super.put(objectKey, value);
                return null;
            }, () -> { });
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            CountDownLatch abortedHere = new CountDownLatch(1);
            return calls.call("get of '" + objectKey + "'", () -> {
                threads.add(Thread.currentThread().getName());
                if (hang) {
                    hung.countDown();
                    while (!abortedHere.await(10, TimeUnit.MILLISECONDS)) {
                        Thread.onSpinWait(); // a socket read: interrupts do not end it, closing the connection does
                    }
                    throw new java.io.IOException("connection closed");
                }
                return super.get(objectKey, maxBytes);
            }, () -> {
                abortedHere.countDown();
                aborted.countDown();
            });
        }

        @Override
        public void close() {
            calls.close();
            super.close();
        }
    }

    private static Hybris openAbortable(List<AbortableCloud> clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .deadline(Duration.ofSeconds(20)).reads(ReadSettings.builder().hedge(false).build())
                .timerMin(Duration.ofMillis(200)).timerInitial(Duration.ofMillis(200))
                .probeInterval(Duration.ZERO).gcEnabled(false);
        clouds.forEach(b::cloud);
        return Hybris.open(b.build());
    }

    /**
     * A driver call that can be aborted runs on the I/O thread Hybris launched the request on (which binds an
     * {@code AbortSignal}), not on a second, driver-owned thread; a request left behind by a faster cloud's answer
     * is aborted, not left blocking its thread.
     */
    @Test
    void abortableDriverCallsRunOnTheIoThreadAndALeftBehindRequestIsAborted() throws Exception {
        List<AbortableCloud> clouds = List.of(new AbortableCloud("c0"), new AbortableCloud("c1"),
                new AbortableCloud("c2"));
        try (Hybris h = openAbortable(clouds)) {
            h.put("box", "k", VALUE);
            AbortableCloud first = clouds.get(0);
            assertThat(h.get("box", "k")).hasValue(VALUE);
            assertThat(first.threads).isNotEmpty().allSatisfy(t -> assertThat(t).doesNotStartWith("driver-worker-")
                    .isNotEqualTo(caller()));
            first.hang = true;

            // c0, ranked first, hangs; its timer launches the next holder, whose answer ends the read
            assertThat(h.get("box", "k")).hasValue(VALUE);

            assertThat(first.hung.getCount()).isZero();
            assertThat(first.aborted.await(10, TimeUnit.SECONDS)).as("the request left behind was aborted").isTrue();
            for (AbortableCloud c : clouds) {
                assertThat(c.threads).noneMatch(t -> t.startsWith("driver-worker-")).doesNotContain(caller());
            }
        } finally {
            clouds.forEach(AbortableCloud::close);
        }
    }

    /** Closing the client aborts a request blocked in a driver on one of its I/O threads. */
    @Test
    void closingTheClientAbortsARequestHungOnAnIoThread() throws Exception {
        List<AbortableCloud> clouds = List.of(new AbortableCloud("c0"), new AbortableCloud("c1"),
                new AbortableCloud("c2"));
        CompletableFuture<Throwable> get = new CompletableFuture<>();
        try {
            Hybris h = openAbortable(clouds);
            h.put("box", "k", VALUE);
            clouds.forEach(c -> c.hang = true);
            Thread reader = new Thread(() -> {
                try {
                    h.get("box", "k");
                    get.complete(null);
                } catch (Throwable t) {
                    get.complete(t);
                }
            });
            reader.start();
            assertThat(clouds.get(0).hung.await(10, TimeUnit.SECONDS)).isTrue();

            h.close(); // the clouds are the application's: only the client's abort can end the hung read

            assertThat(clouds.get(0).aborted.await(10, TimeUnit.SECONDS)).isTrue();
            // closed while in flight, or (the aborted cloud read sent the GET to its worst case) its next metadata
            // read found the client closed: either way the call ends with ClientClosedException
            assertThat(get.get(20, TimeUnit.SECONDS)).isInstanceOf(io.hybris.ClientClosedException.class)
                    .hasMessageContaining("client").hasMessageContaining("closed");
        } finally {
            clouds.forEach(AbortableCloud::close);
        }
    }
}
