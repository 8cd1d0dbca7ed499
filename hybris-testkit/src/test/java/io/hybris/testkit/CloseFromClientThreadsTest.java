/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeListener;
import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.HybrisListener;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * close() called on one of the client's own threads (a garbage collection's, a subscription's), alone or while
 * another thread closes the same client: the close must not wait for the thread it runs on, and the two closes must
 * not wait for each other until a timer gives up.
 */
@Timeout(60)
class CloseFromClientThreadsTest {
    private static final String C = "box";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<Hybris> open = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    /** Clouds behind a decorator that reports no call bound, so that garbage collection runs on its own threads. */
    private Hybris client(HybrisListener listener) {
        List<CloudStore> clouds = List.of("c0", "c1", "c2").stream()
                .<CloudStore>map(id -> new ForwardingCloudStore(new InMemoryCloudStore(id)) { }).toList();
        Hybris h = Hybris.open(Closing.config(metadata, clouds, listener).build());
        open.add(h);
        return h;
    }

    /**
     * Type {@code close-recording}: an in-memory cloud (with no call bound, so garbage collection runs on the
     * client's own threads) that records, when the client closes it, whether the closing thread was interrupted.
     */
    public static final class CloseRecordingProvider implements io.hybris.spi.CloudStoreProvider {
        static final java.util.Map<String, Boolean> closedInterrupted = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public String type() {
            return "close-recording";
        }

        @Override
        public java.util.Set<String> optionNames() {
            return java.util.Set.of();
        }

        @Override
        public CloudStore create(String cloudId, io.hybris.spi.ProviderOptions options) {
            return new ForwardingCloudStore(new InMemoryCloudStore(cloudId)) {
                @Override
                public void close() {
                    closedInterrupted.put(cloudId, Thread.currentThread().isInterrupted());
                    super.close();
                }
            };
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A garbage collection's event closing the client on the GC thread: close waited 10 s for its own thread. */
    @Test
    void closingFromAGarbageCollectionThreadReturnsPromptly() throws Exception {
        AtomicReference<Hybris> self = new AtomicReference<>();
        CompletableFuture<Long> closeMillis = new CompletableFuture<>();
        AtomicBoolean once = new AtomicBoolean();
        AtomicReference<String> thread = new AtomicReference<>();
        Hybris h = client(new HybrisListener() {
            @Override
            public void garbageCollected(String cloudId, String objectKey, GcCause cause) {
                if (once.compareAndSet(false, true)) {
                    thread.set(Thread.currentThread().getName());
                    long t0 = System.nanoTime();
                    self.get().close();
                    closeMillis.complete(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                }
            }
        });
        self.set(h);
        h.put(C, "a", b("one"));
        h.put(C, "a", b("two"));
        long millis = closeMillis.get(30, TimeUnit.SECONDS);
        assertThat(thread.get()).contains("-gc-");
        assertThat(millis).isLessThan(3_000);
        assertThatThrownBy(() -> h.get(C, "a")).isInstanceOf(ClientClosedException.class);
    }

    /**
     * A garbage collection's event closing the client on the GC thread: the close's shutdown of the GC threads
     * interrupted the closing thread itself, so it closed the stores it owns interrupted (a ZooKeeper store then
     * drops its connection instead of closing its session). The thread's interrupt is restored afterwards.
     */
    @Test
    void closingFromAGarbageCollectionThreadClosesTheOwnedStoresUninterrupted() throws Exception {
        CloseRecordingProvider.closedInterrupted.clear();
        AtomicReference<Hybris> self = new AtomicReference<>();
        CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
        AtomicBoolean once = new AtomicBoolean();
        HybrisListener closing = new HybrisListener() {
            @Override
            public void garbageCollected(String cloudId, String objectKey, GcCause cause) {
                if (once.compareAndSet(false, true)) {
                    self.get().close();
                    interruptedAfter.complete(Thread.currentThread().isInterrupted());
                }
            }
        };
        io.hybris.HybrisConfig.Builder b = Closing.config(metadata, List.of(), closing);
        List.of("c0", "c1", "c2").forEach(id -> b.cloud(id, "close-recording", java.util.Map.of()));
        Hybris h = Hybris.open(b.build());
        open.add(h);
        self.set(h);
        h.put(C, "a", b("one"));
        h.put(C, "a", b("two"));
        assertThat(interruptedAfter.get(30, TimeUnit.SECONDS)).as("the GC thread's interrupt kept").isTrue();
        assertThat(CloseRecordingProvider.closedInterrupted).as("closed interrupted, by cloud")
                .containsOnlyKeys("c0", "c1", "c2").doesNotContainValue(true);
    }

    /**
     * A garbage collection's event closing the client while another thread closes it: the second close waited for
     * the first, which waited (10 s) for the garbage collection running that second close.
     */
    @Test
    void aGarbageCollectionThreadClosingWhileAnotherThreadClosesDoesNotStallTheFirst() throws Exception {
        AtomicReference<Hybris> self = new AtomicReference<>();
        CountDownLatch inGc = new CountDownLatch(1);
        CountDownLatch firstClosing = new CountDownLatch(1);
        CompletableFuture<Long> gcCloseMillis = new CompletableFuture<>();
        AtomicBoolean once = new AtomicBoolean();
        Hybris h = client(new HybrisListener() {
            @Override
            public void garbageCollected(String cloudId, String objectKey, GcCause cause) {
                if (once.compareAndSet(false, true)) {
                    inGc.countDown();
                    try {
                        assertThat(firstClosing.await(20, TimeUnit.SECONDS)).isTrue();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    long t0 = System.nanoTime();
                    self.get().close();
                    gcCloseMillis.complete(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                }
            }
        });
        self.set(h);
        h.put(C, "a", b("one"));
        h.put(C, "a", b("two"));
        assertThat(inGc.await(20, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        // the first close waits for the garbage collection still running
        CompletableFuture<Long> firstClose = Closing.inBackground(h, Thread.State.TIMED_WAITING,
                () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        firstClosing.countDown();
        assertThat(firstClose.get(30, TimeUnit.SECONDS)).as("the first close's duration").isLessThan(5_000);
        assertThat(gcCloseMillis.get(30, TimeUnit.SECONDS)).as("the GC thread's close").isLessThan(5_000);
    }

    /**
     * A listener applying a change closes the client while another thread closes it: the listener's close waited
     * for the first, which waited (5 s) for the listener; and then said onStopped while onChange still ran.
     */
    @Test
    void aChangeListenerClosingWhileAnotherThreadClosesDoesNotStallTheFirst() throws Exception {
        CountDownLatch inChange = new CountDownLatch(1);
        CountDownLatch firstClosing = new CountDownLatch(1);
        AtomicReference<Hybris> self = new AtomicReference<>();
        AtomicBoolean inOnChange = new AtomicBoolean();
        CompletableFuture<Boolean> stoppedDuringChange = new CompletableFuture<>();
        Hybris h = client(null);
        self.set(h);
        h.subscribe(C, "", h.latestCursor(C), new ChangeListener() {
            @Override
            public void onChange(Change change) throws Exception {
                inOnChange.set(true);
                inChange.countDown();
                assertThat(firstClosing.await(20, TimeUnit.SECONDS)).isTrue();
                self.get().close();
                inOnChange.set(false);
            }

            @Override
            public void onStopped(HybrisException cause) {
                stoppedDuringChange.complete(inOnChange.get());
            }
        });
        h.put(C, "k", b("v"));
        assertThat(inChange.await(20, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        CompletableFuture<Long> firstClose = Closing.inBackground(h, Thread.State.TIMED_WAITING,
                () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        firstClosing.countDown();
        assertThat(firstClose.get(30, TimeUnit.SECONDS)).as("the first close's duration").isLessThan(3_000);
        assertThat(stoppedDuringChange.get(30, TimeUnit.SECONDS)).as("onStopped while onChange ran").isFalse();
    }
}
