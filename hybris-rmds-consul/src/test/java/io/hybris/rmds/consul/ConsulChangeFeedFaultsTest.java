/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.ChangeCursor;
import io.hybris.ChangeCursorExpiredException;
import io.hybris.ChangeSubscription;
import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.testkit.FeedWorkload;
import io.hybris.testkit.FeedWorkload.Recorder;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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

    private FreezableProxy proxy;
    private String prefix;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private FeedWorkload feed;
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
        feed = new FeedWorkload(C, writerA, writerB);
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
            feed.commit(writerA, 5);
            feed.awaitCaughtUp(r);
            proxy.freeze();
            long frozenAt = System.nanoTime();
            // past the query's wait, its read timeout and the operation timeout
            feed.commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                    .until(() -> System.nanoTime() - frozenAt > TimeUnit.SECONDS.toNanos(10)));
            proxy.thaw();
            feed.commit(writerB, 3);
            feed.awaitCaughtUp(r);
            feed.assertWatchWorks(r, s);
        }
    }

    @Test
    void agentFrozenBrieflyThenThawed() throws Exception {
        open(20_000);
        Recorder r = new Recorder();
        try (ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r)) {
            feed.commit(writerA, 5);
            feed.awaitCaughtUp(r);
            for (int i = 0; i < 3; i++) {
                proxy.freeze();
                long before = proxy.bytesFromClients();
                int committed = feed.commits();
                feed.commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                        .until(() -> proxy.bytesFromClients() > before && feed.commits() > committed + 10));
                proxy.thaw();
                feed.awaitCaughtUp(r);
                feed.assertWatchWorks(r, s);
            }
        }
    }

    @Test
    void answersLostAndConnectionsDroppedWhileCommitsGoOn() throws Exception {
        open(20_000);
        Recorder r = new Recorder();
        try (ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r)) {
            feed.commit(writerA, 5);
            feed.awaitCaughtUp(r);
            for (int i = 0; i < 3; i++) {
                proxy.freezeAnswers();
                long before = proxy.bytesFromClients();
                feed.commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                        .until(() -> proxy.bytesFromClients() > before));
                proxy.dropConnections();
                proxy.thaw();
                feed.awaitCaughtUp(r);
                feed.assertWatchWorks(r, s);
            }
        }
    }

    @Test
    void subscriptionOpenedWhileFrozen() throws Exception {
        open(20_000);
        feed.commit(writerA, 5);
        Recorder r = new Recorder();
        proxy.freeze();
        ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r);
        try {
            long frozenAt = System.nanoTime();
            feed.commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                    .until(() -> System.nanoTime() - frozenAt > TimeUnit.SECONDS.toNanos(8)));
            proxy.thaw();
            feed.awaitCaughtUp(r);
            feed.assertWatchWorks(r, s);
        } finally {
            s.close();
        }
    }

    @Test
    void closedWhileFrozen() throws Exception {
        open(20_000);
        Recorder r = new Recorder();
        ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r);
        feed.commit(writerA, 5);
        feed.awaitCaughtUp(r);
        Recorder r2 = new Recorder();
        ChangeSubscription s2 = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r2);
        feed.awaitCaughtUp(r2);
        proxy.freeze();
        feed.commit(writerB, 3);
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
        feed.commit(writerA, 2);
        List<String> log = feed.log(writerA);
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
                committed.add(feed.commit(i % 2 == 0 ? writerA : writerB, 1));
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
            committed.add(feed.commit(writerA, 1));
            await().atMost(Duration.ofSeconds(40)).until(() -> follower.versions.size() >= committed.size());
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(FeedWorkload.NOTIFIED_WITHIN);
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
            feed.commit(writerA, 1);
            await().atMost(Duration.ofSeconds(30)).until(() -> r.holding);
            feed.commitDuring(() -> await().atMost(Duration.ofSeconds(90)).until(() -> feed.commits() > 600));
            proxy.freeze();
            long frozenAt = System.nanoTime();
            feed.commitDuring(() -> await().atMost(Duration.ofSeconds(30))
                    .until(() -> System.nanoTime() - frozenAt > TimeUnit.SECONDS.toNanos(8)));
            release.countDown(); // its next read waits on the frozen agent; then more than two pages to read
            proxy.thaw();
            feed.awaitCaughtUp(r);
            feed.assertWatchWorks(r, s);
        }
    }
}
