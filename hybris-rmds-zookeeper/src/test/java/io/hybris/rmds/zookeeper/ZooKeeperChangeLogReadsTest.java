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
 * How the ZooKeeper change log is read by a reader that has caught up (a subscriber woken by a commit): its page
 * reads only the sequence numbers that can hold a record, not the whole log, so one notification lists the log
 * once (for the next watch) instead of twice. The semantics themselves are the {@code ChangeLogContract}'s, run
 * against this store by {@link ZooKeeperMetadataStoreContractTest}.
 */
class ZooKeeperChangeLogReadsTest {
    private static final int COMMITS = 3000;
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    @Test
    void aCaughtUpReaderListsTheLogOncePerNotificationNotTwice() throws Exception {
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
             ZooKeeperMetadataStore store = builder(proxy.address()).build()) {
            commit(store, "docs", 0, COMMITS);
            long latest = store.latestChange("docs");

            long before = proxy.bytesFromServer();
            CountDownLatch woken = new CountDownLatch(1);
            Subscription watch = store.watchChanges("docs", latest + 1, woken::countDown);
            commit(store, "docs", COMMITS, 2);
            assertThat(woken.await(10, TimeUnit.SECONDS)).isTrue();
            MetadataChangePage page = store.changes("docs", latest + 1, 256);
            long cycle = proxy.bytesFromServer() - before;
            watch.cancel();

            assertThat(page.changes()).extracting(MetadataChange::sequence).containsExactly(latest + 1, latest + 2);
            assertThat(page.hasMore()).isFalse();
            // a listing of the log is about 16 bytes per record: the watch's, and no second one for the page
            long listing = COMMITS * 16L;
            assertThat(cycle).as("bytes from the server for a watch, two commits and a page")
                    .isGreaterThan(listing).isLessThan(listing * 3 / 2);
        }
    }

    @Test
    void pagesReadAcrossTheNumbersCompactionUsedUp() {
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
        return ZooKeeperMetadataStore.builder().connect(connect).root(ZK.uniqueRoot("/feed-"))
                .connectTimeout(Duration.ofSeconds(5));
    }
}
