/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.Subscription;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How the ZooKeeper change log is read and watched by a reader that has caught up (a subscriber woken by a commit):
 * its page reads only the sequence numbers that can hold a record, and its watch is the log's persistent watch,
 * shared by the store's subscriptions, so a notification never lists the log. The semantics themselves are the {@code ChangeLogContract}'s, run
 * against this store by {@link ZooKeeperMetadataStoreContractTest}.
 */
class ZooKeeperChangeLogReadsTest {
    private static final int COMMITS = 3000;
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    @Test
    void aCaughtUpReaderNeverListsTheLog() throws Exception {
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
             ZooKeeperMetadataStore store = builder(proxy.address()).build()) {
            commit(store, "docs", 0, COMMITS);
            long latest = store.latestChange("docs");
            assertThat(latest).isEqualTo(COMMITS);

            for (int cycle = 0; cycle < 3; cycle++) {
                long before = proxy.bytesFromServer();
                CountDownLatch woken = new CountDownLatch(1);
                Subscription watch = store.watchChanges("docs", latest + 1, woken::countDown);
                commit(store, "docs", COMMITS + 2 * cycle, 2);
                assertThat(woken.await(10, TimeUnit.SECONDS)).isTrue();
                MetadataChangePage page = store.changes("docs", latest + 1, 256);
                long bytes = proxy.bytesFromServer() - before;
                watch.cancel();

                assertThat(page.changes()).extracting(MetadataChange::sequence)
                        .containsExactly(latest + 1, latest + 2);
                assertThat(page.hasMore()).isFalse();
                // a listing of the log is about 16 bytes per record: 48 KB here, and not one is read
                assertThat(bytes).as("bytes from the server for a watch, two commits and a page")
                        .isLessThan(COMMITS * 16L / 8);
                latest += 2;
            }
            assertThat(store.latestChange("docs")).isEqualTo(latest);
            assertThat(store.changeLog().watches().watchedLogs()).as("one watch, set once")
                    .containsExactly(store.changeLog().path("docs"));
        }
    }

    /**
     * The log znode's {@code cversion} counts deletions too, while records are named after the creations only: once
     * compaction deleted records, the cversion is far above the newest record, and a reader bounding its probes by
     * it listed the whole log (its retention) on every caught-up read and every {@code latestChange}.
     */
    @Test
    void aCaughtUpReaderOfACompactedLogNeverListsTheLog() throws Exception {
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
             ZooKeeperMetadataStore store = builder(proxy.address()).changesRetention(1000).build()) {
            commit(store, "docs", 0, COMMITS);
            store.changeLog().compact("docs");
            long latest = store.latestChange("docs");
            assertThat(latest).isEqualTo(COMMITS);
            assertThat(store.changeLog().cversion("docs")).as("creations and deletions").isGreaterThan(COMMITS + 1000);

            long before = proxy.bytesFromServer();
            commit(store, "docs", COMMITS, 2);
            MetadataChangePage page = store.changes("docs", latest + 1, 256);
            long newest = store.latestChange("docs");
            long bytes = proxy.bytesFromServer() - before;

            assertThat(page.changes()).extracting(MetadataChange::sequence).containsExactly(latest + 1, latest + 2);
            assertThat(newest).isEqualTo(latest + 2);
            // a listing of the 1,000 records kept is about 16 KB, and not one is read
            assertThat(bytes).as("bytes from the server for two commits, a page and the latest").isLessThan(8_000);
        }
    }

    @Test
    void aCompactionOfALogWithinItsRetentionDoesNotListIt() throws Exception {
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
             ZooKeeperMetadataStore store = builder(proxy.address()).changesRetention(COMMITS + 1).build()) {
            commit(store, "docs", 0, COMMITS);
            long before = proxy.bytesFromServer();
            store.changeLog().compact("docs");
            // the background compaction the last commit started may run meanwhile: it too reads only a stat
            assertThat(proxy.bytesFromServer() - before).as("bytes from the server for a compaction")
                    .isLessThan(COMMITS * 16L / 8);
            assertThat(store.changes("docs", 1, 1).changes()).extracting(MetadataChange::sequence)
                    .containsExactly(1L);
        }
    }

    @Test
    void subscriptionsToOneLogShareItsWatch() {
        try (ZooKeeperMetadataStore store = builder(ZK.connectString()).build()) {
            commit(store, "docs", 0, 1);
            commit(store, "other", 0, 1);
            List<CountDownLatch> woken = new ArrayList<>();
            List<Subscription> subscriptions = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                CountDownLatch latch = new CountDownLatch(1);
                woken.add(latch);
                subscriptions.add(store.watchChanges("docs", 2, latch::countDown));
            }
            CountDownLatch otherWoken = new CountDownLatch(1);
            store.watchChanges("other", 2, otherWoken::countDown);
            subscriptions.get(0).cancel();
            assertThat(store.changeLog().watches().watchedLogs())
                    .containsExactlyInAnyOrder(store.changeLog().path("docs"), store.changeLog().path("other"));

            commit(store, "docs", 1, 1);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> woken.subList(1, 20).stream().allMatch(l -> l.getCount() == 0));
            assertThat(woken.get(0).getCount()).as("cancelled before the commit").isOne();
            assertThat(otherWoken.getCount()).as("another log's subscription").isOne();
            commit(store, "other", 1, 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> otherWoken.getCount() == 0);
        }
    }

    /**
     * A commit made while the subscriber's connection was down wakes it once the connection is back (the server
     * does not replay what a persistent watch missed meanwhile).
     */
    @Test
    void aCommitWhileTheConnectionWasDownWakesTheSubscriberWhenItComesBack() throws Exception {
        String root = ZK.uniqueRoot("/feed-");
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
             ZooKeeperMetadataStore subscriber = builder(proxy.address(), root).sessionTimeout(Duration.ofSeconds(30))
                     .build();
             ZooKeeperMetadataStore writer = builder(ZK.connectString(), root).build()) {
            commit(writer, "docs", 0, 1);
            CountDownLatch woken = new CountDownLatch(1);
            subscriber.watchChanges("docs", 2, woken::countDown);

            proxy.freeze();
            proxy.dropConnections(); // the subscriber connects again, and waits at the frozen proxy
            commit(writer, "docs", 1, 1);
            assertThat(woken.getCount()).as("not woken while disconnected").isOne();
            proxy.thaw();

            assertThat(woken.await(20, TimeUnit.SECONDS)).as("woken once the connection is back").isTrue();
            assertThat(subscriber.changes("docs", 2, 10).changes()).hasSize(1);
        }
    }

    /** The server forgets the watch with the session; the next subscription sets it again on the new one. */
    @Test
    void afterSessionExpiryTheWatchIsSetAgain() throws Exception {
        try (ZooKeeperMetadataStore store = builder(ZK.connectString()).build()) {
            commit(store, "docs", 0, 1);
            CountDownLatch expired = new CountDownLatch(1);
            store.watchChanges("docs", 2, expired::countDown);
            store.curator().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
            assertThat(expired.await(20, TimeUnit.SECONDS)).as("fired conservatively").isTrue();

            CountDownLatch woken = new CountDownLatch(1);
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> store.watchChanges("docs", 2, woken::countDown) != null);
            commit(store, "docs", 1, 1);
            assertThat(woken.await(10, TimeUnit.SECONDS)).as("woken by a commit on the new session").isTrue();
        }
    }

    /** A log nobody followed for a while has its watch removed at its next change; a new subscriber sets it again. */
    @Test
    void anIdleLogsWatchIsRemovedAtItsNextChange() throws Exception {
        AtomicLong clock = new AtomicLong();
        try (ZooKeeperMetadataStore store = builder(ZK.connectString()).build();
             ChangeLogWatches watches = new ChangeLogWatches(store.session(), "test", clock::get)) {
            String log = store.changeLog().path("docs");
            commit(store, "docs", 0, 1);
            CountDownLatch first = new CountDownLatch(1);
            watches.subscribe(log, first::countDown);
            commit(store, "docs", 1, 1);
            assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();

            commit(store, "docs", 2, 1); // nobody waits, but not idle for long: kept
            assertThat(watches.watchedLogs()).containsExactly(log);
            clock.addAndGet(ChangeLogWatches.IDLE_NANOS);
            commit(store, "docs", 3, 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> watches.watchedLogs().isEmpty());

            CountDownLatch second = new CountDownLatch(1);
            watches.subscribe(log, second::countDown);
            assertThat(watches.watchedLogs()).containsExactly(log);
            commit(store, "docs", 4, 1);
            assertThat(second.await(10, TimeUnit.SECONDS)).as("set again").isTrue();
        }
    }

    @Test
    void pagesReadAcrossTheNumbersCompactionUsedUp() throws Exception {
        try (ZooKeeperMetadataStore store = builder(ZK.connectString()).changesRetention(100).build()) {
            commit(store, "docs", 0, 600); // compacted every 10 commits down to 100: deletions use numbers up
            await().atMost(Duration.ofSeconds(20)).until(() -> store.changes("docs", 1, 1).compactedThrough() > 0);
            MetadataChangePage first = store.changes("docs", 1, 1);
            long from = first.compactedThrough() + 1;

            List<Long> read = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            long cursor = from;
            while (true) {
                MetadataChangePage page = store.changes("docs", cursor, 7);
                for (MetadataChange c : page.changes()) {
                    read.add(c.sequence());
                    keys.add(c.updates().get(0).key());
                    cursor = c.sequence() + 1;
                }
                if (!page.hasMore()) {
                    break;
                }
            }
            assertThat(read).isSorted().doesNotHaveDuplicates();
            assertThat(keys).as("every commit after the marker, in commit order").last().isEqualTo("k599");
            int firstKey = Integer.parseInt(keys.get(0).substring(1));
            assertThat(keys).hasSize(600 - firstKey);
            assertThat(store.latestChange("docs")).as("the newest record, below numbers deletions used since")
                    .isEqualTo(cursor - 1).isLessThan(store.changeLog().cversion("docs"));
            // one commit more wakes a watch from after the last one read, however far compaction moved the numbers
            CountDownLatch woken = new CountDownLatch(1);
            Subscription watch = store.watchChanges("docs", cursor, woken::countDown);
            commit(store, "docs", 600, 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> woken.getCount() == 0);
            watch.cancel();
            assertThat(store.changes("docs", cursor, 10).changes()).extracting(c -> c.updates().get(0).key())
                    .containsExactly("k600");
        }
    }

    @Test
    void aWatchFromACommitAlreadyThereFiresAtOnce() {
        try (ZooKeeperMetadataStore store = builder(ZK.connectString()).build()) {
            commit(store, "docs", 0, 3);
            CountDownLatch woken = new CountDownLatch(1);
            store.watchChanges("docs", 3, woken::countDown);
            assertThat(woken.getCount()).isZero();
        }
    }

    /**
     * Clients that each commit once and close (a CLI invocation, a short job) still keep the log near its retention:
     * a commit compacts with probability 1 / interval whoever makes it, and closing lets that compaction finish.
     * Counting its own commits, no such client ever compacted and the log grew by one record per client.
     */
    @Test
    void clientsThatEachCommitOnceAndCloseStillCompactTheLog() throws Exception {
        String root = ZK.uniqueRoot("/feed-");
        int retention = 20; // a compaction on one commit in two, on average
        for (int i = 0; i < 60; i++) {
            try (ZooKeeperMetadataStore store = builder(ZK.connectString(), root).changesRetention(retention).build()) {
                commit(store, "docs", i, 1);
            }
        }
        try (ZooKeeperMetadataStore store = builder(ZK.connectString(), root).changesRetention(retention).build()) {
            int records = store.curator().checkExists().forPath(store.changeLog().path("docs")).getNumChildren();
            // more than 20 records beyond the retention needs 20 draws in a row that did not compact: 1 in 10^6
            assertThat(records).as("records left of 60 commits").isBetween(retention, 2 * retention);
            MetadataChangePage oldest = store.changes("docs", 1, 1);
            assertThat(oldest.compactedThrough()).isGreaterThanOrEqualTo(60 - 2L * retention);
            assertThat(store.latestChange("docs")).isGreaterThanOrEqualTo(60);
        }
    }

    private static void commit(ZooKeeperMetadataStore store, String container, int first, int count) {
        for (int i = first; i < first + count; i++) {
            try {
                store.conditionalUpdate(new MetadataUpdate(new MetadataKey(container, "k" + i), new byte[100],
                        MetadataVersion.ABSENT));
            } catch (io.hybris.spi.VersionConflictException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static ZooKeeperMetadataStore.Builder builder(String connect) {
        return builder(connect, ZK.uniqueRoot("/feed-"));
    }

    private static ZooKeeperMetadataStore.Builder builder(String connect, String root) {
        return ZooKeeperMetadataStore.builder().connect(connect).root(root).connectTimeout(Duration.ofSeconds(5));
    }
}
