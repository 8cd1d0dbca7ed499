/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeListener;
import io.hybris.ChangeSubscription;
import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.HybrisListener;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * User code calling its client back from inside the callbacks Hybris makes: closing the client from an I/O
 * thread's or a garbage collection's event, from a change listener, from a scrub listener (the scrub used to go on
 * through its page of 1,000 keys and return a complete report), writing and subscribing from a change listener, an
 * {@code onStopped} throwing an {@code Error} at close, a close while a listener applies a change, and a second close
 * meanwhile.
 */
@Timeout(60)
class CallbackReentryTest {
    private static final String C = "box";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    private final List<Hybris> open = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    private Hybris client(HybrisListener listener) {
        Hybris h = Hybris.open(Closing.config(metadata, clouds, listener).build());
        open.add(h);
        return h;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void closingTheClientFromACloudRequestEventOnAnIoThreadEndsTheCallAndReturns() throws Exception {
        AtomicReference<Hybris> self = new AtomicReference<>();
        AtomicBoolean armed = new AtomicBoolean();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        Hybris h = client(new HybrisListener() {
            @Override
            public void cloudRequest(CloudRequest request) {
                if (armed.compareAndSet(true, false)) {
                    self.get().close();
                    closed.complete(null);
                }
            }
        });
        self.set(h);
        h.put(C, "a", b("one"));
        armed.set(true);
        long t0 = System.nanoTime();
        Throwable thrown = null;
        try {
            h.put(C, "a", b("two"));
        } catch (HybrisException e) {
            thrown = e;
        }
        closed.get(20, TimeUnit.SECONDS);
        assertThat(thrown).isInstanceOf(ClientClosedException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(5_000);
    }

    @Test
    void closingTheClientFromAGarbageCollectedEventReturnsPromptly() throws Exception {
        AtomicReference<Hybris> self = new AtomicReference<>();
        CompletableFuture<Long> closeMillis = new CompletableFuture<>();
        AtomicBoolean once = new AtomicBoolean();
        Hybris h = client(new HybrisListener() {
            @Override
            public void garbageCollected(String cloudId, String objectKey, GcCause cause) {
                if (once.compareAndSet(false, true)) {
                    long t0 = System.nanoTime();
                    self.get().close();
                    closeMillis.complete(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                }
            }
        });
        self.set(h);
        h.put(C, "a", b("one"));
        h.put(C, "a", b("two"));
        assertThat(closeMillis.get(30, TimeUnit.SECONDS)).isLessThan(3_000);
        assertThatThrownBy(() -> h.get(C, "a")).isInstanceOf(ClientClosedException.class);
    }

    @Test
    void aChangeListenerClosingTheClientEndsItsSubscriptionWithClientClosed() throws Exception {
        AtomicReference<Hybris> self = new AtomicReference<>();
        CompletableFuture<HybrisException> stopped = new CompletableFuture<>();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        Hybris h = client(null);
        self.set(h);
        ChangeSubscription s = h.subscribe(C, "", h.latestCursor(C), new ChangeListener() {
            @Override
            public void onChange(Change change) {
                self.get().close();
                closed.complete(null);
            }

            @Override
            public void onStopped(HybrisException cause) {
                stopped.complete(cause);
            }
        });
        client(null).put(C, "a", b("one"));
        closed.get(20, TimeUnit.SECONDS);
        assertThat(stopped.get(20, TimeUnit.SECONDS)).isInstanceOf(ClientClosedException.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> !s.isActive());
    }

    @Test
    void aChangeListenerWritingAndSubscribingThroughItsClientKeepsGoing() throws Exception {
        Hybris h = client(null);
        List<String> seen = new CopyOnWriteArrayList<>();
        List<String> seenByInner = new CopyOnWriteArrayList<>();
        AtomicReference<ChangeSubscription> inner = new AtomicReference<>();
        ChangeCursor start = h.latestCursor(C);
        ChangeSubscription s = h.subscribe(C, "", start, change -> {
            seen.add(change.key());
            if (change.key().equals("a") && !change.version().isDeletion()) {
                h.put(C, "b", h.get(C, "a").orElseThrow());
                inner.set(h.subscribe(C, "", start, c -> seenByInner.add(c.key())));
                h.delete(C, "a");
            }
        });
        h.put(C, "a", b("one"));
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() >= 3 && seenByInner.size() >= 3);
        assertThat(seen).containsExactlyInAnyOrder("a", "b", "a");
        s.close();
        inner.get().close();
        assertThat(s.isActive()).isFalse();
    }

    @Test
    void aScrubListenerClosingTheClientEndsTheScrub() {
        Hybris h = client(null);
        for (int i = 0; i < 20; i++) {
            h.put(C, "k" + i, b("v" + i));
        }
        AtomicBoolean once = new AtomicBoolean();
        List<KeyHealth> heard = new CopyOnWriteArrayList<>();
        Throwable thrown = null;
        try {
            h.scrub(ScrubOptions.listing().listener(new ScrubListener() {
                @Override
                public void key(KeyHealth health) {
                    heard.add(health);
                    if (once.compareAndSet(false, true)) {
                        h.close();
                    }
                }
            }));
        } catch (RuntimeException e) {
            thrown = e;
        }
        assertThat(thrown).isInstanceOf(ClientClosedException.class);
        assertThat(heard).hasSize(1);
    }

    @Test
    void aScrubListenerThrowingEndsTheScrubWithAHybrisException() {
        Hybris h = client(null);
        for (int i = 0; i < 5; i++) {
            h.put(C, "k" + i, b("v" + i));
        }
        Throwable thrown = null;
        try {
            h.scrub(ScrubOptions.listing().listener(new ScrubListener() {
                @Override
                public void key(KeyHealth health) {
                    throw new IllegalStateException("listener bug");
                }
            }));
        } catch (RuntimeException e) {
            thrown = e;
        }
        assertThat(thrown).isInstanceOf(HybrisException.class).hasRootCauseMessage("listener bug");
    }

    @Test
    void anOnStoppedThrowingAnErrorAtCloseStillStopsTheOtherSubscriptionsAndEndsTheCallsInFlight() throws Exception {
        Hybris h = client(null);
        List<HybrisException> stopped = new CopyOnWriteArrayList<>();
        List<ChangeSubscription> subs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            subs.add(h.subscribe(C, "", h.latestCursor(C), new ChangeListener() {
                @Override
                public void onChange(Change change) {
                }

                @Override
                public void onStopped(HybrisException cause) {
                    stopped.add(cause);
                    throw new AssertionError("a test's assertion in onStopped");
                }
            }));
        }
        Hybris other = client(null);
        h.put(C, "a", b("one")); // the client's I/O threads exist
        String threads = "hybris-" + h.config().clientId() + "-";
        h.close();
        assertThat(stopped).hasSize(3).allMatch(e -> e instanceof ClientClosedException);
        assertThat(subs).noneMatch(ChangeSubscription::isActive);
        assertThatThrownBy(() -> h.get(C, "a")).isInstanceOf(ClientClosedException.class);
        assertThat(other.get(C, "a")).contains(b("one"));
        await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && t.getName().startsWith(threads) && !t.getName().contains("changes")));
    }

    /**
     * A listener applying a change while the client closes: close() returned at once, the listener still running
     * (and about to use what the program closes next), and onStopped ran on the closing thread at the same time.
     */
    @Test
    void closingTheClientWaitsForTheChangeBeingAppliedThenSaysStopped() throws Exception {
        Hybris h = client(null);
        CountDownLatch inChange = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean applying = new AtomicBoolean();
        AtomicBoolean stoppedWhileApplying = new AtomicBoolean(true);
        CompletableFuture<HybrisException> stopped = new CompletableFuture<>();
        ChangeSubscription s = h.subscribe(C, "", h.latestCursor(C), new ChangeListener() {
            @Override
            public void onChange(Change change) throws Exception {
                applying.set(true);
                inChange.countDown();
                assertThat(release.await(20, TimeUnit.SECONDS)).isTrue();
                applying.set(false);
            }

            @Override
            public void onStopped(HybrisException cause) {
                stoppedWhileApplying.set(applying.get());
                stopped.complete(cause);
            }
        });
        h.put(C, "k", b("v"));
        assertThat(inChange.await(20, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> closed = Closing.inBackground(h, Thread.State.TIMED_WAITING, applying::get);
        assertThat(closed).as("close() returned while the listener was applying a change").isNotDone();
        release.countDown();
        assertThat(closed.get(20, TimeUnit.SECONDS)).as("listener still running after close()").isFalse();
        assertThat(stopped.get(20, TimeUnit.SECONDS)).isInstanceOf(ClientClosedException.class);
        assertThat(stoppedWhileApplying).isFalse();
        ChangeCursor past = client(null).latestCursor(C); // after the one change: it was applied
        assertThat(s.cursor()).isEqualTo(past);
        assertThat(stopped.get().getMessage()).contains("ended at " + past);
    }

    /**
     * A second close() while the first waits for a listener applying a change: it returned at once, before the
     * first had released anything (a program closing a client from a shutdown hook and from its main thread went on
     * with the client's threads and stores still open); it now returns once the first has released the client.
     */
    @Test
    void aSecondCloseReturnsOnceTheFirstHasReleasedTheClient() throws Exception {
        Hybris h = client(null);
        CountDownLatch inChange = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean applied = new AtomicBoolean();
        h.subscribe(C, "", h.latestCursor(C), new ChangeListener() {
            @Override
            public void onChange(Change change) throws Exception {
                inChange.countDown();
                assertThat(release.await(20, TimeUnit.SECONDS)).isTrue();
                applied.set(true);
            }
        });
        h.put(C, "k", b("v"));
        assertThat(inChange.await(20, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> firstClose = Closing.inBackground(h, Thread.State.TIMED_WAITING, () -> true);
        CompletableFuture<Boolean> secondClose = Closing.inBackground(h, Thread.State.WAITING, applied::get);
        assertThat(firstClose).as("the first close still waits for the listener").isNotDone();
        assertThat(secondClose).as("the second close returned while the first was releasing").isNotDone();

        release.countDown();
        assertThat(secondClose.get(20, TimeUnit.SECONDS)).as("the change applied before the second close returned")
                .isTrue();
        firstClose.get(20, TimeUnit.SECONDS);
        assertThatThrownBy(() -> h.get(C, "k")).isInstanceOf(ClientClosedException.class);
    }
}
