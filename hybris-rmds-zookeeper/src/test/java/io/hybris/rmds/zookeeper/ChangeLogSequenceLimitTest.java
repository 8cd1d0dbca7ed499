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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.GENERATION;
import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.LAST;
import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.commit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A container's change-log records are sequential znodes named after the count of their parent's creations, which
 * ZooKeeper cannot take past {@link Integer#MAX_VALUE} (the 2^31st record is named {@code c-2147483647}; every later
 * creation is refused NODEEXISTS). The log goes on in generations ({@link ChangeLogNames}): these tests set the
 * server's count of a log just below the last name directly, as two billion commits would leave it, and check that
 * commits go on, in order, for one client, for clients that did not see the rollover, under concurrent writers, and
 * across compaction, and that pages, the newest record and watches cross from one generation to the next.
 */
class ChangeLogSequenceLimitTest {

    @TempDir
    Path dir;
    private ChangeLogLimitFixture fx;

    @BeforeEach
    void start() throws Exception {
        fx = new ChangeLogLimitFixture(dir, "/limit");
    }

    @AfterEach
    void stop() throws Exception {
        fx.close();
    }

    @Test
    void commitsToAFullLogGoOnInItsNextGenerationAndPagesCrossIt() throws Exception {
        ZooKeeperMetadataStore store = fx.store(1000);
        commit(store, "box", "k0");
        fx.setCreations(store.changeLog().path("box"), LAST - 2);

        for (int i = 1; i <= 5; i++) {
            commit(store, "box", "k" + i);
        }

        List<MetadataChange> all = store.changes("box", 1, 100).changes();
        assertThat(all).extracting(MetadataChange::sequence).containsExactly(1L, LAST - 1, LAST, LAST + 1,
                GENERATION + 1, GENERATION + 2);
        assertThat(all).extracting(c -> c.updates().get(0).key()).containsExactly("k0", "k1", "k2", "k3", "k4", "k5");
        assertThat(store.session().client().getChildren().forPath(store.changeLog().path("box") + ".g-0000000001"))
                .containsExactlyInAnyOrder("c-0000000000", "c-0000000001");
        assertThat(store.latestChange("box")).isEqualTo(GENERATION + 2);

        MetadataChangePage crossing = store.changes("box", LAST + 1, 2);
        assertThat(crossing.changes()).extracting(MetadataChange::sequence).containsExactly(LAST + 1, GENERATION + 1);
        assertThat(crossing.hasMore()).isTrue();
        MetadataChangePage fromTheGap = store.changes("box", LAST + 2, 10);
        assertThat(fromTheGap.changes()).extracting(MetadataChange::sequence)
                .containsExactly(GENERATION + 1, GENERATION + 2);
        MetadataChangePage caughtUp = store.changes("box", GENERATION + 3, 10);
        assertThat(caughtUp.changes()).isEmpty();
        assertThat(caughtUp.hasMore()).isFalse();
        assertThat(caughtUp.end()).isEqualTo(GENERATION + 2);
        assertThat(store.changes("box", 5 * GENERATION, 10).end()).as("a cursor in a generation never made")
                .isEqualTo(GENERATION + 2);
    }

    @Test
    void aClientThatDidNotSeeTheRolloverWritesToTheNewestGeneration() throws Exception {
        ZooKeeperMetadataStore first = fx.store(1000);
        commit(first, "box", "k0");
        fx.setCreations(first.changeLog().path("box"), LAST);
        commit(first, "box", "last");
        commit(first, "box", "rolled");

        ZooKeeperMetadataStore late = fx.store(1000);
        commit(late, "box", "late");
        fx.setCreations(first.changeLog().path("box") + ".g-0000000001", LAST);
        commit(first, "box", "last1");
        commit(late, "box", "rolled-twice");
        commit(first, "box", "after");

        assertThat(late.changes("box", 1, 100).changes()).extracting(MetadataChange::sequence,
                        c -> c.updates().get(0).key())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "k0"),
                        org.assertj.core.groups.Tuple.tuple(LAST + 1, "last"),
                        org.assertj.core.groups.Tuple.tuple(GENERATION + 1, "rolled"),
                        org.assertj.core.groups.Tuple.tuple(GENERATION + 2, "late"),
                        org.assertj.core.groups.Tuple.tuple(GENERATION + LAST + 1, "last1"),
                        org.assertj.core.groups.Tuple.tuple(2 * GENERATION + 1, "rolled-twice"),
                        org.assertj.core.groups.Tuple.tuple(2 * GENERATION + 2, "after"));
        assertThat(first.latestChange("box")).isEqualTo(2 * GENERATION + 2);
    }

    @Test
    void concurrentWritersAcrossTheLimitAllCommitAndTheLogListsEachOnceInOrder() throws Exception {
        ZooKeeperMetadataStore store = fx.store(1000);
        ZooKeeperMetadataStore other = fx.store(1000);
        commit(store, "box", "k0");
        fx.setCreations(store.changeLog().path("box"), LAST - 20);
        int threads = 8;
        int each = 10;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                ZooKeeperMetadataStore s = t % 2 == 0 ? store : other;
                int writer = t;
                writers.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < each; i++) {
                        commit(s, "box", "w" + writer + "-" + i);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> w : writers) {
                w.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        List<MetadataChange> all = store.changes("box", 2, 1000).changes();
        assertThat(all).hasSize(threads * each);
        assertThat(all).extracting(c -> c.updates().get(0).key()).doesNotHaveDuplicates();
        assertThat(all).extracting(MetadataChange::sequence).isSorted().doesNotHaveDuplicates();
        for (int t = 0; t < threads; t++) { // each writer's commits in its own order
            String prefix = "w" + t + "-";
            assertThat(all.stream().map(c -> c.updates().get(0).key()).filter(k -> k.startsWith(prefix)).toList())
                    .containsExactly(java.util.stream.IntStream.range(0, each).mapToObj(i -> prefix + i)
                            .toArray(String[]::new));
        }
        assertThat(all.get(all.size() - 1).sequence()).isGreaterThan(GENERATION);
        assertThat(store.latestChange("box")).isEqualTo(all.get(all.size() - 1).sequence());
    }

    /**
     * Creations sent while the one taking the last name is still being applied are named by the wrapped count
     * ({@code c--2147483648} on); pipelined creations past the limit make some (the one taking the last name is
     * held until 50 more were prepared, or this depended on timing), and every record created is read, in the order
     * the server answered, before the next generation's.
     */
    @Test
    void recordsNamedByTheWrappedCountAreReadInOrderBeforeTheNextGeneration() throws Exception {
        ZooKeeperMetadataStore store = fx.store(1000);
        commit(store, "box", "k0");
        String log = store.changeLog().path("box");
        fx.setCreations(log, LAST - 1);
        // the creation taking the last name is held until 50 more were prepared: those are named by the wrapped count
        java.util.concurrent.atomic.AtomicInteger prepared = new java.util.concurrent.atomic.AtomicInteger();
        fx.server.hold(r -> r.getTxn() instanceof org.apache.zookeeper.txn.CreateTxn create
                        && create.getPath().equals(log + "/c-2147483647"), new CountDownLatch(1),
                r -> (r.type == org.apache.zookeeper.ZooDefs.OpCode.create
                        || r.type == org.apache.zookeeper.ZooDefs.OpCode.create2) && prepared.incrementAndGet() > 50);
        int sent = 200;
        List<String> created = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch answered = new CountDownLatch(sent);
        for (int i = 0; i < sent; i++) {
            byte[] record = io.hybris.spi.support.ChangeLogCodec.encode(List.of(new MetadataUpdate(
                    new MetadataKey("box", "p" + i), new byte[] {1}, MetadataVersion.ABSENT)));
            store.session().client().create().withMode(org.apache.zookeeper.CreateMode.PERSISTENT_SEQUENTIAL)
                    .inBackground((c, event) -> {
                        if (event.getResultCode() == 0) {
                            created.add(event.getName().substring(log.length() + 1));
                        }
                        answered.countDown();
                    }).forPath(log + "/c-", record);
        }
        assertThat(answered.await(30, TimeUnit.SECONDS)).isTrue();
        commit(store, "box", "next");

        assertThat(created).as("names past the last").anyMatch(n -> n.startsWith("c--")).first()
                .isEqualTo("c-2147483646");
        List<MetadataChange> all = store.changes("box", 2, 1000).changes();
        assertThat(all).extracting(c -> ChangeLogNames.child(log, c.sequence()).substring(log.length() + 1))
                .as("every record, in the order created, then the next generation's")
                .containsExactlyElementsOf(java.util.stream.Stream.concat(created.stream(),
                        java.util.stream.Stream.of("g-0000000001/c-0000000000")).toList());
        assertThat(store.latestChange("box")).isEqualTo(GENERATION + 1);
    }

    @Test
    void compactionEmptiesOlderGenerationsButKeepsThemFull() throws Exception {
        ZooKeeperMetadataStore store = fx.store(3);
        commit(store, "box", "k0");
        fx.setCreations(store.changeLog().path("box"), LAST - 3);
        for (int i = 1; i <= 10; i++) {
            commit(store, "box", "k" + i);
        }
        store.changeLog().compact("box");

        String log = store.changeLog().path("box");
        assertThat(store.session().client().getChildren().forPath(log))
                .containsExactly("c-2147483647");
        assertThat(store.session().client().getChildren().forPath(log + ".g-0000000001")).hasSize(3);
        MetadataChangePage page = store.changes("box", 1, 100);
        assertThat(page.compactedThrough()).isEqualTo(GENERATION + 3);
        assertThat(page.changes()).extracting(c -> c.updates().get(0).key()).endsWith("k8", "k9", "k10");

        ZooKeeperMetadataStore fresh = fx.store(3);
        commit(fresh, "box", "fresh");
        assertThat(fresh.latestChange("box")).as("not a record re-made in the first generation")
                .isEqualTo(GENERATION + 7);
        assertThat(store.session().client().getChildren().forPath(log))
                .containsExactly("c-2147483647");
    }

    @Test
    void aWatchFollowsTheLogIntoItsNextGeneration() throws Exception {
        ZooKeeperMetadataStore store = fx.store(1000);
        ZooKeeperMetadataStore watcher = fx.store(1000);
        commit(store, "box", "k0");
        fx.setCreations(store.changeLog().path("box"), LAST);
        commit(store, "box", "last");

        CountDownLatch firstOfNext = new CountDownLatch(1);
        Subscription s1 = watcher.watchChanges("box", LAST + 2, firstOfNext::countDown);
        assertThat(firstOfNext.getCount()).as("nothing after the last name yet").isOne();
        commit(store, "box", "rolled"); // makes generation 1: the log's own watch fires
        assertThat(firstOfNext.await(10, TimeUnit.SECONDS)).isTrue();
        s1.cancel();

        CountDownLatch now = new CountDownLatch(1);
        watcher.watchChanges("box", LAST + 2, now::countDown).cancel();
        assertThat(now.getCount()).as("a record of the next generation is there: fires at once").isZero();

        CountDownLatch next = new CountDownLatch(1);
        Subscription s2 = watcher.watchChanges("box", GENERATION + 2, next::countDown);
        assertThat(next.getCount()).isOne();
        commit(store, "box", "second");
        assertThat(next.await(10, TimeUnit.SECONDS)).isTrue();
        s2.cancel();
    }

    @Test
    void readsWorkOnceTheReportedCversionHasWrapped() throws Exception {
        ZooKeeperMetadataStore store = fx.store(1000);
        commit(store, "old", "k");
        fx.setCreations(store.changeLog().path("old"), (1L << 30) + 5);
        commit(store, "old", "k2");

        long latest = (1L << 30) + 6;
        assertThat(store.changeLog().cversion("old")).as("the cversion ZooKeeper reports has wrapped").isNegative();
        assertThat(store.latestChange("old")).as("the record after the jump").isEqualTo(latest);
        assertThat(store.changes("old", latest, 10).changes()).extracting(c -> c.updates().get(0).key())
                .containsExactly("k2");
        CountDownLatch woken = new CountDownLatch(1);
        store.watchChanges("old", latest, woken::countDown).cancel();
        assertThat(woken.getCount()).as("a watch from a record already there fires at once").isZero();
    }

}
