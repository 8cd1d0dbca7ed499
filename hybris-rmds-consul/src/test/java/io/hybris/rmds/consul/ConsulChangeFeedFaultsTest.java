/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.ChangeCursor;
import io.hybris.ChangeSubscription;
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
        long[] frozenAt = new long[1];
        feed.assertOpenedWhileFrozenCatchesUp(subscriber, () -> {
            proxy.freeze();
            frozenAt[0] = System.nanoTime();
        }, () -> await().atMost(Duration.ofSeconds(30))
                .until(() -> System.nanoTime() - frozenAt[0] > TimeUnit.SECONDS.toNanos(8)), proxy::thaw);
    }

    @Test
    void closedWhileFrozen() throws Exception {
        open(20_000);
        feed.assertClosingWhileFrozenEndsPromptly(subscriber, proxy::freeze, proxy::thaw);
    }

    @Test
    void compactionWhileTheSubscriberFollowsAndWhileItLags() throws Exception {
        open(10);
        feed.assertCompactionPassesOnlyTheLaggingSubscriber(subscriber);
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
