/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeListener;
import io.hybris.ChangePage;
import io.hybris.ChangeSubscription;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.VersionInfo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two writers committing to one container while a test injects a fault into a subscriber's metadata store, and the
 * checks of the change feed's fault tests: the subscriber delivered exactly the log (every commit once, in commit
 * order, every acknowledged write among them) and a new commit reaches it through its watch, well before the
 * subscription's periodic re-read. Each writer writes keys of its own (a plain PUT overtaken by another client's may
 * list no change, docs/changes.md). Thread-safe.
 */
public final class FeedWorkload {
    /** How soon a commit made after a fault must reach the subscriber: far below the 30 s re-read. */
    public static final Duration NOTIFIED_WITHIN = Duration.ofSeconds(12);

    private final String container;
    private final Hybris writerA;
    private final Hybris writerB;
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicInteger counter = new AtomicInteger();

    /** The workload of {@code writerA} and {@code writerB} on {@code container}. */
    public FeedWorkload(String container, Hybris writerA, Hybris writerB) {
        this.container = container;
        this.writerA = writerA;
        this.writerB = writerB;
    }

    /** How many commits were attempted so far. */
    public int commits() {
        return counter.get();
    }

    /** The versions of the acknowledged commits (a test may add its own). */
    public Set<String> acknowledged() {
        return acknowledged;
    }

    /** Commits {@code n} values with {@code writer} (one of the two); returns the last version. */
    public String commit(Hybris writer, int n) {
        String last = null;
        for (int i = 0; i < n; i++) {
            int k = counter.incrementAndGet();
            String key = (writer == writerA ? "a" : "b") + (k % 7);
            VersionInfo v = writer.put(container, key, ("v" + k).getBytes(StandardCharsets.UTF_8));
            acknowledged.add(v.version());
            last = v.version();
        }
        return last;
    }

    /**
     * Starts both writers committing on threads of their own until {@code stop} is set, paced (about 100 commits a
     * second each) so the log the checks read stays a few thousand commits; a commit that fails may have landed.
     */
    public List<Thread> startWriters(AtomicBoolean stop) {
        List<Thread> threads = new ArrayList<>();
        for (Hybris w : List.of(writerA, writerB)) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        commit(w, 1);
                    } catch (RuntimeException unknownOutcome) {
                        // may or may not have committed
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // the pace, not a wait for anything
                }
            }, "feed-writer");
            t.start();
            threads.add(t);
        }
        return threads;
    }

    /** Commits from both writers ({@link #startWriters}) until {@code fault} returns. */
    public void commitDuring(ThrowingRunnable fault) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = startWriters(stop);
        try {
            fault.run();
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    /** The whole log, version ids in commit order, read by {@code reader}. */
    public List<String> log(Hybris reader) {
        List<String> out = new ArrayList<>();
        ChangeCursor cursor = ChangeCursor.BEGINNING;
        while (true) {
            ChangePage page = reader.changes(container, "", cursor, 1000);
            page.changes().forEach(c -> out.add(c.version().version()));
            cursor = page.cursor();
            if (!page.hasMore()) {
                return out;
            }
        }
    }

    /** Waits until {@code r} delivered the whole log so far, then checks it delivered exactly the log. */
    public void awaitCaughtUp(Recorder r) {
        // the writer's read of the log may meet a connection the fault left hanging: one request timeout (20 s in
        // the fault tests) and a retry must fit (30 s did not, once, in a clean-clone run)
        List<String> log = await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> log(writerA),
                l -> true);
        await().atMost(Duration.ofSeconds(60)).until(() -> r.versions.size() >= log.size() || r.stopped != null);
        assertThat(r.stopped).as("onStopped").isNull();
        assertThat(r.versions.subList(0, log.size())).as("delivered in commit order, once").isEqualTo(log);
        assertThat(log).as("acknowledged commits in the log").containsAll(acknowledged);
    }

    /** After a fault: {@code s} is active and each of three new commits reaches it through the watch. */
    public void assertWatchWorks(Recorder r, ChangeSubscription s) {
        assertThat(s.isActive()).isTrue();
        for (int i = 0; i < 3; i++) {
            commit(writerA, 1);
            List<String> log = log(writerA);
            long t0 = System.nanoTime();
            await().atMost(Duration.ofSeconds(40)).until(() -> r.versions.size() >= log.size());
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("notified of a commit after the fault")
                    .isLessThan(NOTIFIED_WITHIN);
            assertThat(r.versions).isEqualTo(log);
        }
    }

    /**
     * A subscription of {@code subscriber} opened while its store is cut off ({@code freeze}): the writers commit
     * until {@code frozenLongEnough} returns, then {@code thaw}; it catches up with exactly the log, and its watch
     * works.
     */
    public void assertOpenedWhileFrozenCatchesUp(Hybris subscriber, Runnable freeze, ThrowingRunnable frozenLongEnough,
                                                 Runnable thaw) throws Exception {
        commit(writerA, 5);
        Recorder r = new Recorder();
        freeze.run();
        try (ChangeSubscription s = subscriber.subscribe(container, "", ChangeCursor.BEGINNING, r)) {
            commitDuring(frozenLongEnough);
            thaw.run();
            awaitCaughtUp(r);
            assertWatchWorks(r, s);
        }
    }

    /**
     * Two subscriptions of {@code subscriber}, caught up; the store cut off ({@code freeze}) while commits go on: the
     * first closed ends within 7 s, the client closed within 20 s, which ends the second with
     * {@code ClientClosedException}; after {@code thaw}, each delivered a prefix of the log, nothing after its end.
     */
    public void assertClosingWhileFrozenEndsPromptly(Hybris subscriber, Runnable freeze, Runnable thaw) {
        Recorder r = new Recorder();
        ChangeSubscription s = subscriber.subscribe(container, "", ChangeCursor.BEGINNING, r);
        commit(writerA, 5);
        awaitCaughtUp(r);
        Recorder r2 = new Recorder();
        ChangeSubscription s2 = subscriber.subscribe(container, "", ChangeCursor.BEGINNING, r2);
        awaitCaughtUp(r2);
        freeze.run();
        commit(writerB, 3);
        long t0 = System.nanoTime();
        s.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(7));
        assertThat(s.isActive()).isFalse();
        int delivered = r.versions.size();
        subscriber.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
        await().atMost(Duration.ofSeconds(10)).until(() -> r2.stopped != null);
        assertThat(r2.stopped).isInstanceOf(io.hybris.ClientClosedException.class);
        assertThat(s2.isActive()).isFalse();
        assertThat(r.stopped).isNull();
        thaw.run();
        commit(writerA, 2);
        List<String> log = log(writerA);
        assertThat(r.versions).hasSize(delivered).isEqualTo(log.subList(0, delivered));
        assertThat(log.subList(0, r2.versions.size())).isEqualTo(r2.versions);
    }

    /**
     * With a change log kept short (the writers' stores compact it), one subscription of {@code subscriber} follows
     * 120 commits while another is held: the follower gets every commit in order and is notified of the next through
     * its watch; the held one, released, ends with {@code ChangeCursorExpiredException} after an exact prefix.
     */
    public void assertCompactionPassesOnlyTheLaggingSubscriber(Hybris subscriber) {
        Recorder follower = new Recorder();
        Recorder lagging = new Recorder();
        CountDownLatch release = new CountDownLatch(1);
        lagging.gate = release;
        ChangeSubscription lags = subscriber.subscribe(container, "", ChangeCursor.BEGINNING, lagging);
        try (ChangeSubscription s = subscriber.subscribe(container, "", ChangeCursor.BEGINNING, follower)) {
            List<String> committed = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                committed.add(commit(i % 2 == 0 ? writerA : writerB, 1));
                if (i % 5 == 0) { // the follower keeps up: compaction never passes its cursor
                    await().atMost(Duration.ofSeconds(30)).until(() -> follower.versions.size() == committed.size());
                }
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> follower.versions.size() >= committed.size());
            assertThat(follower.versions).isEqualTo(committed);
            assertThat(follower.stopped).isNull();
            release.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> lagging.stopped != null);
            assertThat(lagging.stopped).isInstanceOf(io.hybris.ChangeCursorExpiredException.class);
            assertThat(lags.isActive()).isFalse();
            assertThat(lagging.versions).isEqualTo(committed.subList(0, lagging.versions.size()));
            long t0 = System.nanoTime();
            committed.add(commit(writerA, 1));
            await().atMost(Duration.ofSeconds(40)).until(() -> follower.versions.size() >= committed.size());
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(NOTIFIED_WITHIN);
            assertThat(follower.versions).isEqualTo(committed);
            assertThat(s.isActive()).isTrue();
        } finally {
            lags.close();
        }
    }

    /** A fault injected while the writers commit. */
    @FunctionalInterface
    public interface ThrowingRunnable {
        /** Injects the fault and waits for what the test needs. */
        void run() throws Exception;
    }

    /**
     * A listener recording the versions delivered; it can be held at a {@link #gate} (then {@link #holding}) or made
     * slow (200 ms per change), and records what {@code onStopped} got.
     */
    public static final class Recorder implements ChangeListener {
        /** The versions delivered, in order. */
        public final List<String> versions = new CopyOnWriteArrayList<>();
        /** Whether each change takes 200 ms, as a slow consumer's. */
        public final AtomicBoolean slow = new AtomicBoolean();
        /** When set, each change waits for it (at most 120 s). */
        public volatile CountDownLatch gate;
        /** Whether a change reached the gate. */
        public volatile boolean holding;
        /** What {@code onStopped} got, if it was called. */
        public volatile HybrisException stopped;

        @Override
        public void onChange(Change change) {
            CountDownLatch g = gate;
            if (g != null) {
                holding = true;
                try {
                    g.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (slow.get()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a slow consumer's work
            }
            versions.add(change.version().version());
        }

        @Override
        public void onStopped(HybrisException cause) {
            stopped = cause;
        }
    }
}
