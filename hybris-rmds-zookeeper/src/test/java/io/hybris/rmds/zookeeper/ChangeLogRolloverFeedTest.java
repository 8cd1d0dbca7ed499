/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeListener;
import io.hybris.ChangePage;
import io.hybris.ChangeSubscription;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.GENERATION;
import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.LAST;
import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.commit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The public change feed and atomic updates across a ZooKeeper change log's rollovers ({@link ChangeLogNames}): a
 * subscription following writers of two clients across two generations, a cursor taken before a rollover read
 * after it in small pages, multi-container updates where one container's log is full, and compaction running while
 * writers cross.
 */
class ChangeLogRolloverFeedTest {

    @TempDir
    Path dir;
    private ChangeLogLimitFixture fx;

    @BeforeEach
    void start() throws Exception {
        fx = new ChangeLogLimitFixture(dir, "/feed");
    }

    @AfterEach
    void stop() throws Exception {
        fx.close();
    }

    @Test
    void aSubscriptionDeliversEveryChangeOnceInOrderWhileWritersCrossTwoGenerations() throws Exception {
        ZooKeeperMetadataStore storeA = fx.store(1000);
        ZooKeeperMetadataStore storeB = fx.store(1000);
        Hybris a = fx.client(storeA);
        Hybris b = fx.client(storeB);
        Hybris subscriber = fx.client(fx.store(1000));
        String log = storeA.changeLog().path("box");
        a.put("box", "k0", bytes("0"));
        ChangeCursor start = subscriber.latestCursor("box");
        List<String> delivered = new CopyOnWriteArrayList<>();
        AtomicBoolean stopped = new AtomicBoolean();
        try (ChangeSubscription s = subscriber.subscribe("box", "", start, new ChangeListener() {
            @Override
            public void onChange(Change change) {
                delivered.add(change.key());
            }

            @Override
            public void onStopped(HybrisException cause) {
                stopped.set(true);
            }
        })) {
            fx.setCreations(log, LAST - 6);
            writeConcurrently(List.of(a, b), "p", 8);
            fx.setCreations(ChangeLogNames.generationPath(log, 1), LAST - 6);
            writeConcurrently(List.of(a, b), "q", 8);

            List<String> logged = keys(storeA.changes("box", start.commit(), 1000).changes());
            assertThat(logged).hasSize(32);
            await().atMost(Duration.ofSeconds(20)).until(() -> delivered.size() >= logged.size());
            assertThat(delivered).as("every commit once, in the log's order").containsExactlyElementsOf(logged);
            assertThat(stopped).isFalse();
            assertThat(storeA.latestChange("box")).isGreaterThan(2 * GENERATION);
            for (String p : List.of("p0-", "p1-", "q0-", "q1-")) { // each writer's commits in its order
                assertThat(delivered.stream().filter(k -> k.startsWith(p)).toList())
                        .containsExactlyElementsOf(IntStream.range(0, 8).mapToObj(i -> p + i).toList());
            }
        }
    }

    @Test
    void aCursorTakenBeforeTheRolloverIsReadAfterItInSmallPages() throws Exception {
        ZooKeeperMetadataStore store = fx.store(1000);
        Hybris writer = fx.client(store);
        Hybris reader = fx.client(fx.store(1000));
        writer.put("box", "k0", bytes("0"));
        fx.setCreations(store.changeLog().path("box"), LAST - 2);
        ChangeCursor before = reader.latestCursor("box");
        List<String> written = IntStream.range(0, 7).mapToObj(i -> "k" + (i + 1)).toList();
        for (String k : written) {
            writer.put("box", k, bytes(k));
        }
        for (int limit = 1; limit <= 3; limit++) {
            List<String> read = new ArrayList<>();
            ChangeCursor cursor = before;
            for (int pages = 0; pages < 20; pages++) {
                ChangePage page = reader.changes("box", "", cursor, limit);
                page.changes().forEach(c -> read.add(c.key()));
                cursor = page.cursor();
                if (!page.hasMore()) {
                    break;
                }
            }
            assertThat(read).as("pages of " + limit).containsExactlyElementsOf(written);
            assertThat(cursor.commit()).isEqualTo(GENERATION + 5);
            assertThat(reader.changes("box", "", cursor, limit).changes()).isEmpty();
        }
    }

    @Test
    void anAtomicUpdateOfTwoContainersWhoseLogsAreFullRollsEachOver() throws Exception {
        ZooKeeperMetadataStore store = fx.store(1000);
        ZooKeeperMetadataStore other = fx.store(1000);
        commit(store, "full", "f0");
        commit(store, "open", "o0");
        fx.setCreations(store.changeLog().path("full"), LAST);
        commit(store, "full", "last"); // the full log's last name

        store.conditionalUpdateAll(List.of(update("full", "f1"), update("open", "o1")));
        fx.setCreations(store.changeLog().path("open"), LAST);
        commit(store, "open", "olast");
        other.conditionalUpdateAll(List.of(update("open", "o2"), update("full", "f2"))); // both refused: both roll

        assertThat(store.changes("full", 1, 100).changes()).extracting(MetadataChange::sequence,
                        c -> c.updates().get(0).key())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "f0"),
                        org.assertj.core.groups.Tuple.tuple(LAST + 1, "last"),
                        org.assertj.core.groups.Tuple.tuple(GENERATION + 1, "f1"),
                        org.assertj.core.groups.Tuple.tuple(GENERATION + 2, "f2"));
        assertThat(store.changes("open", 1, 100).changes()).extracting(MetadataChange::sequence,
                        c -> c.updates().get(0).key())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "o0"),
                        org.assertj.core.groups.Tuple.tuple(2L, "o1"),
                        org.assertj.core.groups.Tuple.tuple(LAST + 1, "olast"),
                        org.assertj.core.groups.Tuple.tuple(GENERATION + 1, "o2"));
    }

    @Test
    void compactionRunningWhileWritersCrossKeepsTheLastNamedRecordAndTheRetention() throws Exception {
        int retention = 5;
        ZooKeeperMetadataStore a = fx.store(retention);
        ZooKeeperMetadataStore b = fx.store(retention);
        String log = a.changeLog().path("box");
        commit(a, "box", "k0");
        fx.setCreations(log, LAST - 10);
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Future<?> compacting = pool.submit(() -> {
                while (writing.get()) {
                    b.changeLog().compact("box");
                }
                return null;
            });
            List<Future<?>> writers = new ArrayList<>();
            for (ZooKeeperMetadataStore s : List.of(a, b)) {
                String prefix = s == a ? "a" : "b";
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < 15; i++) {
                        commit(s, "box", prefix + i);
                    }
                    return null;
                }));
            }
            for (Future<?> w : writers) {
                w.get(60, TimeUnit.SECONDS);
            }
            writing.set(false);
            compacting.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        // how many of those the first generation took depends on timing (while the compactor's deletions are in
        // flight, creations take names of the wrapped count there): the second gets the retention's worth after
        for (int i = 0; i < retention; i++) {
            commit(a, "box", "after" + i);
        }
        a.changeLog().compact("box");

        assertThat(a.session().client().getChildren().forPath(log)).contains("c-2147483647");
        assertThat(a.session().client().checkExists().forPath(log + ".g-0000000001")).isNotNull();
        List<MetadataChange> kept = a.changes("box", 1, 100).changes();
        assertThat(kept).extracting(MetadataChange::sequence).isSorted().doesNotHaveDuplicates();
        List<MetadataChange> newest = kept.stream().filter(c -> c.sequence() > GENERATION).toList();
        assertThat(newest).hasSize(retention);
        assertThat(newest.get(newest.size() - 1).sequence()).isEqualTo(a.latestChange("box"));
        assertThat(a.changes("box", 1, 100).compactedThrough()).isEqualTo(newest.get(0).sequence() - 1);
        ZooKeeperMetadataStore fresh = fx.store(retention);
        commit(fresh, "box", "fresh");
        assertThat(fresh.latestChange("box")).isEqualTo(newest.get(newest.size() - 1).sequence() + 1);
    }

    /**
     * A client that has not written a log yet starts at its first generation: on a log of more generations than one
     * write rolls over (16) it must still commit, to the newest.
     */
    @Test
    void aClientNewToALogOfManyGenerationsCommitsToTheNewest() throws Exception {
        ZooKeeperMetadataStore writer = fx.store(1000);
        String log = writer.changeLog().path("box");
        commit(writer, "box", "k0");
        int generations = 20;
        for (int g = 0; g < generations; g++) {
            fx.setCreations(ChangeLogNames.generationPath(log, g), LAST);
            commit(writer, "box", "last" + g);
            commit(writer, "box", "first" + (g + 1)); // refused there: the next generation's first record
        }
        ZooKeeperMetadataStore fresh = fx.store(1000);

        commit(fresh, "box", "fresh");

        long newest = generations * GENERATION + 2;
        assertThat(fresh.latestChange("box")).isEqualTo(newest);
        assertThat(keys(fresh.changes("box", newest - 1, 10).changes())).containsExactly("first20", "fresh");
        commit(fresh, "box", "again");
        assertThat(writer.latestChange("box")).isEqualTo(newest + 1);
    }

    private void writeConcurrently(List<Hybris> writers, String prefix, int each) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers.size());
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers.size(); w++) {
                Hybris h = writers.get(w);
                String p = prefix + w + "-";
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        h.put("box", p + i, bytes(p + i));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> keys(List<MetadataChange> changes) {
        return changes.stream().map(c -> c.updates().get(0).key()).toList();
    }

    private static MetadataUpdate update(String container, String key) {
        return new MetadataUpdate(new MetadataKey(container, key), bytes("v"), MetadataVersion.ABSENT);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
