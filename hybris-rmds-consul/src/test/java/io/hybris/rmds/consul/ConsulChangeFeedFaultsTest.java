/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeCursorExpiredException;
import io.hybris.ChangeListener;
import io.hybris.ChangePage;
import io.hybris.ChangeSubscription;
import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
 * The change feed across faults of the subscriber's connection to a Consul agent (docs/changes.md): the subscriber's
 * store reaches the agent through a {@link FreezableProxy}, two writer clients reach it directly and commit
 * throughout. After each fault the subscription must have delivered exactly the log (every commit once, in commit
 * order, every acknowledged write among them), still be active, and be notified of a new commit through its blocking
 * query again, well within the 30 s re-read that backs a lost watch.
 */
class ConsulChangeFeedFaultsTest {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    private static final String C = "feed";
    private static final Duration WATCH_WAIT = Duration.ofSeconds(2);
    private static final Duration NOTIFIED_WITHIN = Duration.ofSeconds(12);

    private FreezableProxy proxy;
    private String prefix;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicInteger counter = new AtomicInteger();
    private Hybris subscriber;
    private Hybris writerA;
    private Hybris writerB;

    @BeforeEach
    void start() throws Exception {
        String[] hostPort = CONSUL.address().split(":");
        proxy = new FreezableProxy(hostPort[0], Integer.parseInt(hostPort[1]));
        prefix = CONSUL.uniquePrefix("feed-faults-");
    }

    private void open(int writerRetention) {
        subscriber = client(proxy.address(), 20_000);
        writerA = client(CONSUL.address(), writerRetention);
        writerB = client(CONSUL.address(), writerRetention);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.thaw();
        for (int i = closing.size() - 1; i >= 0; i--) {
            try {
                closing.get(i).close();
            } catch (Exception ignored) {
                // closing
            }
        }
        proxy.close();
    }

    private Hybris client(String address, int retention) {
        ConsulMetadataStore s = ConsulMetadataStore.builder().address(address).keyPrefix(prefix)
                .watchWait(WATCH_WAIT).readTimeout(Duration.ofSeconds(2)).connectTimeout(Duration.ofSeconds(2))
                .operationTimeout(Duration.ofSeconds(3)).changesRetention(retention).build();
        closing.add(s);
        Hybris h = Hybris.open(Hybris.builder().f(1).metadataStore(s).cloud(new InMemoryCloudStore("c0"))
                .cloud(new InMemoryCloudStore("c1")).cloud(new InMemoryCloudStore("c2"))
                .deadline(Duration.ofSeconds(10)).build());
        closing.add(h);
        return h;
    }

    @Test
    void agentFrozenPastTheBlockingQueryWaitThenThawed() throws Exception {
        open(20_000);
        Recorder r = new Recorder();
        try (ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r)) {
            commit(writerA, 5);
            awaitCaughtUp(r);
            proxy.freeze();
            long frozenAt = System.nanoTime();
            // past the query's wait, its read timeout and the operation timeout
            commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                    .until(() -> System.nanoTime() - frozenAt > TimeUnit.SECONDS.toNanos(10)));
            proxy.thaw();
            commit(writerB, 3);
            awaitCaughtUp(r);
            assertWatchWorks(r, s);
        }
    }

    @Test
    void agentFrozenBrieflyThenThawed() throws Exception {
        open(20_000);
        Recorder r = new Recorder();
        try (ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r)) {
            commit(writerA, 5);
            awaitCaughtUp(r);
            for (int i = 0; i < 3; i++) {
                proxy.freeze();
                long before = proxy.bytesFromClients();
                int committed = counter.get();
                commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                        .until(() -> proxy.bytesFromClients() > before && counter.get() > committed + 10));
                proxy.thaw();
                awaitCaughtUp(r);
                assertWatchWorks(r, s);
            }
        }
    }

    @Test
    void answersLostAndConnectionsDroppedWhileCommitsGoOn() throws Exception {
        open(20_000);
        Recorder r = new Recorder();
        try (ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r)) {
            commit(writerA, 5);
            awaitCaughtUp(r);
            for (int i = 0; i < 3; i++) {
                proxy.freezeAnswers();
                long before = proxy.bytesFromClients();
                commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                        .until(() -> proxy.bytesFromClients() > before));
                proxy.dropConnections();
                proxy.thaw();
                awaitCaughtUp(r);
                assertWatchWorks(r, s);
            }
        }
    }

    @Test
    void subscriptionOpenedWhileFrozen() throws Exception {
        open(20_000);
        commit(writerA, 5);
        Recorder r = new Recorder();
        proxy.freeze();
        ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r);
        try {
            long frozenAt = System.nanoTime();
            commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                    .until(() -> System.nanoTime() - frozenAt > TimeUnit.SECONDS.toNanos(8)));
            proxy.thaw();
            awaitCaughtUp(r);
            assertWatchWorks(r, s);
        } finally {
            s.close();
        }
    }

    @Test
    void closedWhileFrozen() throws Exception {
        open(20_000);
        Recorder r = new Recorder();
        ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r);
        commit(writerA, 5);
        awaitCaughtUp(r);
        Recorder r2 = new Recorder();
        ChangeSubscription s2 = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r2);
        awaitCaughtUp(r2);
        proxy.freeze();
        commit(writerB, 3);
        long t0 = System.nanoTime();
        s.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(7));
        assertThat(s.isActive()).isFalse();
        int delivered = r.versions.size();
        subscriber.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
        await().atMost(Duration.ofSeconds(10)).until(() -> r2.stopped != null);
        assertThat(r2.stopped).isInstanceOf(ClientClosedException.class);
        assertThat(s2.isActive()).isFalse();
        assertThat(r.stopped).isNull();
        proxy.thaw();
        commit(writerA, 2);
        List<String> log = log(writerA);
        assertThat(r.versions).hasSize(delivered).isEqualTo(log.subList(0, delivered));
        assertThat(log.subList(0, r2.versions.size())).isEqualTo(r2.versions);
    }

    @Test
    void compactionWhileTheSubscriberFollowsAndWhileItLags() throws Exception {
        open(10);
        Recorder follower = new Recorder();
        Recorder lagging = new Recorder();
        CountDownLatch release = new CountDownLatch(1);
        lagging.gate = release;
        ChangeSubscription lags = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, lagging);
        try (ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, follower)) {
            List<String> committed = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                committed.add(commit(i % 2 == 0 ? writerA : writerB, 1));
                if (i % 5 == 0) {
                    await().atMost(Duration.ofSeconds(30)).until(() -> follower.versions.size() == committed.size());
                }
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> follower.versions.size() >= committed.size());
            assertThat(follower.versions).isEqualTo(committed);
            assertThat(follower.stopped).isNull();
            release.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> lagging.stopped != null);
            assertThat(lagging.stopped).isInstanceOf(ChangeCursorExpiredException.class);
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

    @Test
    void aListenerHeldWhileHundredsCommitAndTheAgentFreezesCatchesUpPageByPage() throws Exception {
        open(20_000);
        Recorder r = new Recorder();
        CountDownLatch release = new CountDownLatch(1);
        r.gate = release;
        try (ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r)) {
            commit(writerA, 1);
            await().atMost(Duration.ofSeconds(30)).until(() -> r.holding);
            commitDuring(() -> await().atMost(Duration.ofSeconds(90)).until(() -> counter.get() > 600));
            proxy.freeze();
            long frozenAt = System.nanoTime();
            commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                    .until(() -> System.nanoTime() - frozenAt > TimeUnit.SECONDS.toNanos(8)));
            release.countDown(); // its next read waits on the frozen agent; then more than two pages to read
            proxy.thaw();
            awaitCaughtUp(r);
            assertWatchWorks(r, s);
        }
    }

    private void commitDuring(ThrowingRunnable fault) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (Hybris w : List.of(writerA, writerB)) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        commit(w, 1);
                    } catch (RuntimeException unknownOutcome) {
                        // may or may not have committed
                    }
                    // paced (about 100 commits a second each): the log the checks read stays a few thousand commits
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
            });
            t.start();
            threads.add(t);
        }
        try {
            fault.run();
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    private String commit(Hybris writer, int n) {
        String last = null;
        for (int i = 0; i < n; i++) {
            int k = counter.incrementAndGet();
            // each writer its own keys: a plain PUT overtaken by another client's may list no change (docs/changes.md)
            String key = (writer == writerA ? "a" : "b") + (k % 7);
            VersionInfo v = writer.put(C, key, ("v" + k).getBytes(StandardCharsets.UTF_8));
            acknowledged.add(v.version());
            last = v.version();
        }
        return last;
    }

    private static List<String> log(Hybris reader) {
        List<String> out = new ArrayList<>();
        ChangeCursor cursor = ChangeCursor.BEGINNING;
        while (true) {
            ChangePage page = reader.changes(C, "", cursor, 1000);
            page.changes().forEach(c -> out.add(c.version().version()));
            cursor = page.cursor();
            if (!page.hasMore()) {
                return out;
            }
        }
    }

    private void awaitCaughtUp(Recorder r) {
        List<String> log = log(writerA);
        await().atMost(Duration.ofSeconds(60)).until(() -> r.versions.size() >= log.size() || r.stopped != null);
        assertThat(r.stopped).as("onStopped").isNull();
        assertThat(r.versions.subList(0, log.size())).as("delivered in commit order, once").isEqualTo(log);
        assertThat(log).as("acknowledged commits in the log").containsAll(acknowledged);
    }

    private void assertWatchWorks(Recorder r, ChangeSubscription s) {
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

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static final class Recorder implements ChangeListener {
        final List<String> versions = new CopyOnWriteArrayList<>();
        volatile CountDownLatch gate;
        volatile boolean holding;
        volatile HybrisException stopped;

        @Override
        public void onChange(Change change) {
            CountDownLatch g = gate;
            if (g != null) {
                holding = true;
                try {
                    g.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            versions.add(change.version().version());
        }

        @Override
        public void onStopped(HybrisException cause) {
            stopped = cause;
        }
    }
}
