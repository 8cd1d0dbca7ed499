/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.ChangeCursor;
import io.hybris.ChangeSubscription;
import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.testkit.ServerPorts;
import io.hybris.testkit.ZooKeeperStatus;
import io.hybris.testkit.FeedWorkload;
import io.hybris.testkit.FeedWorkload.Recorder;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The change feed on a 3-server ensemble whose leader is killed (twice, restarted between) while two writer clients
 * commit, and under compaction: the subscription delivers exactly the log, once, in commit order, with every
 * acknowledged write, and is notified of new commits through its watch afterwards; a subscriber that lags behind
 * compaction ends visibly, having delivered an exact prefix of the log.
 */
class ZooKeeperEnsembleChangeFeedTest {
    private static final String C = "feed";

    private TestingCluster cluster;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private FeedWorkload feed;
    private Hybris writerA;
    private Hybris writerB;
    private Hybris subscriber;

    @AfterEach
    void stop() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            try {
                closing.get(i).close();
            } catch (Exception ignored) {
                // closing
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private void startCluster() throws Exception {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            specs.add(new InstanceSpec(null, ServerPorts.next(), ServerPorts.next(), ServerPorts.next(), true, -1));
        }
        cluster = new TestingCluster(specs);
        cluster.start();
    }

    private Hybris client(String connect, int retention) {
        ZooKeeperMetadataStore s = ZooKeeperMetadataStore.builder().connect(connect).root("/ensemble-feed")
                .sessionTimeout(Duration.ofSeconds(10)).connectTimeout(Duration.ofSeconds(5))
                .operationTimeout(Duration.ofSeconds(8)).changesRetention(retention).build();
        closing.add(s);
        Hybris h = Hybris.open(Hybris.builder().f(1).metadataStore(s).cloud(new InMemoryCloudStore("c0"))
                .cloud(new InMemoryCloudStore("c1")).cloud(new InMemoryCloudStore("c2"))
                .deadline(Duration.ofSeconds(15)).build());
        closing.add(h);
        return h;
    }

    @Test
    void leaderKilledTwiceWhileTwoClientsCommit() throws Exception {
        startCluster();
        writerA = client(cluster.getConnectString(), 20_000);
        writerB = client(cluster.getConnectString(), 20_000);
        feed = new FeedWorkload(C, writerA, writerB);
        subscriber = client(cluster.getConnectString(), 20_000);
        Recorder r = new Recorder();
        try (ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r)) {
            feed.commit(writerA, 5);
            feed.awaitCaughtUp(r);
            for (int round = 0; round < 2; round++) {
                InstanceSpec killed = leader();
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> writers = feed.startWriters(stop);
                await().atMost(Duration.ofSeconds(30)).until(() -> feed.commits() > 20);
                assertThat(cluster.killServer(killed)).isTrue();
                int before = feed.commits();
                await().atMost(Duration.ofSeconds(60)).until(() -> feed.commits() > before + 30);
                stop.set(true);
                for (Thread t : writers) {
                    t.join();
                }
                assertThat(cluster.restartServer(killed)).isTrue();
                feed.awaitCaughtUp(r);
                feed.assertWatchWorks(r, s);
            }
        }
    }

    @Test
    void theSubscribersOnlyServerKilledAndRestartedWithinItsSessionAndPastIt() throws Exception {
        startCluster();
        writerA = client(cluster.getConnectString(), 20_000);
        writerB = client(cluster.getConnectString(), 20_000);
        feed = new FeedWorkload(C, writerA, writerB);
        InstanceSpec follower = cluster.getInstances().stream().filter(spec -> !spec.equals(leader())).findFirst()
                .orElseThrow();
        subscriber = client(follower.getConnectString(), 20_000);
        Recorder r = new Recorder();
        try (ChangeSubscription s = subscriber.subscribe(C, "", ChangeCursor.BEGINNING, r)) {
            feed.commit(writerA, 5);
            feed.awaitCaughtUp(r);
            for (Duration down : List.of(Duration.ofSeconds(2), Duration.ofSeconds(14))) {
                assertThat(cluster.killServer(follower)).isTrue();
                long killedAt = System.nanoTime();
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> writers = feed.startWriters(stop);
                int before = feed.commits();
                await().atMost(Duration.ofSeconds(60)).until(() -> feed.commits() > before + 20
                        && System.nanoTime() - killedAt > down.toNanos());
                assertThat(cluster.restartServer(follower)).isTrue();
                stop.set(true);
                for (Thread t : writers) {
                    t.join();
                }
                feed.awaitCaughtUp(r);
                feed.assertWatchWorks(r, s);
            }
        }
    }

    @Test
    void compactionWhileTheSubscriberFollowsAndWhileItLags() throws Exception {
        startCluster();
        writerA = client(cluster.getConnectString(), 10);
        writerB = client(cluster.getConnectString(), 10);
        feed = new FeedWorkload(C, writerA, writerB);
        subscriber = client(cluster.getConnectString(), 20_000);
        feed.assertCompactionPassesOnlyTheLaggingSubscriber(subscriber);
    }
    private InstanceSpec leader() {
        return await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (TestingZooKeeperServer server : cluster.getServers()) {
                InstanceSpec spec = server.getInstanceSpec();
                if (ZooKeeperStatus.isLeader(spec.getPort())) {
                    return spec;
                }
            }
            return null;
        }, spec -> spec != null);
    }
}
