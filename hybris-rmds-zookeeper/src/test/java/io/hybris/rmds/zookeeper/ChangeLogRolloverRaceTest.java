/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.ChangeCursor;
import io.hybris.ChangePage;
import io.hybris.Hybris;
import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.Subscription;
import org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.zookeeper.proto.ExistsRequest;
import org.apache.zookeeper.txn.CreateTxn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.GENERATION;
import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.LAST;
import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.commit;
import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.commitUnchecked;
import static io.hybris.rmds.zookeeper.ChangeLogLimitFixture.sessionId;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Races around a change log's rollover ({@link ChangeLogNames}), made deterministic on an in-process server that
 * runs an action when a chosen request arrives, or holds a chosen transaction until another was prepared: a reader
 * listing a full generation just before its last record lands and the next generation's first one follows, and a
 * writer that takes the first generation for the current one while a later generation is being made.
 */
class ChangeLogRolloverRaceTest {

    @TempDir
    Path dir;
    private ChangeLogLimitFixture fx;

    @BeforeEach
    void start() throws Exception {
        fx = new ChangeLogLimitFixture(dir, "/race");
    }

    @AfterEach
    void stop() throws Exception {
        fx.close();
    }

    /**
     * A reader lists the full first generation before its last record (c-2147483647) is created, and finds the
     * second generation, with a record, after: it must not deliver that record without the one before it.
     */
    @Test
    void aPageDoesNotSkipTheLastRecordOfAGenerationCompletedWhileItReads() throws Exception {
        ZooKeeperMetadataStore writer = fx.store(1000);
        ZooKeeperMetadataStore reader = fx.store(1000);
        String log = writer.changeLog().path("box");
        commit(writer, "box", "k0");
        fx.setCreations(log, LAST - 1);
        commit(writer, "box", "a"); // c-2147483646: the generation is full by its count, its last name still free
        whenReaderAsks(reader, log + ".g-0000000001", () -> {
            commit(writer, "box", "last"); // c-2147483647
            commit(writer, "box", "rolled"); // refused there: the second generation's first record
        });

        List<MetadataChange> page = reader.changes("box", LAST, 100).changes();

        assertThat(page).extracting(MetadataChange::sequence).containsExactly(LAST, LAST + 1, GENERATION + 1);
        assertThat(page).extracting(c -> c.updates().get(0).key()).containsExactly("a", "last", "rolled");
    }

    /** The same race through the public change feed: the page after "a" holds "last", then "rolled". */
    @Test
    void theChangeFeedDoesNotSkipTheLastRecordOfAGenerationCompletedWhileItReads() throws Exception {
        ZooKeeperMetadataStore writerStore = fx.store(1000);
        ZooKeeperMetadataStore readerStore = fx.store(1000);
        Hybris writer = fx.client(writerStore);
        Hybris reader = fx.client(readerStore);
        String log = writerStore.changeLog().path("box");
        writer.put("box", "k0", bytes("0"));
        fx.setCreations(log, LAST - 1);
        writer.put("box", "a", bytes("a"));
        ChangeCursor afterA = reader.latestCursor("box");
        assertThat(afterA.commit()).isEqualTo(LAST + 1);
        whenReaderAsks(readerStore, log + ".g-0000000001", () -> {
            writer.put("box", "last", bytes("l"));
            writer.put("box", "rolled", bytes("r"));
        });

        ChangePage page = reader.changes("box", "", afterA, 100);

        assertThat(page.changes()).extracting(io.hybris.Change::key).containsExactly("last", "rolled");
        assertThat(page.cursor().commit()).isEqualTo(GENERATION + 2);
    }

    /**
     * A client that still writes the first generation (one just started) commits while another makes the third
     * generation, a child creation that ZooKeeper counts past the first generation's last name: the commit must not
     * land in the first generation, behind records of the second one that readers have passed.
     */
    @Test
    void aStaleWriterDoesNotCommitIntoTheFirstGenerationWhileALaterOneIsMade() throws Exception {
        ZooKeeperMetadataStore writer = fx.store(1000);
        ZooKeeperMetadataStore stale = fx.store(1000);
        String log = writer.changeLog().path("box");
        commit(writer, "box", "k0");
        commit(stale, "box", "early"); // knows the log; writes the first generation until refused there
        fx.setCreations(log, LAST);
        commit(writer, "box", "last"); // c-2147483647
        commit(writer, "box", "g1"); // the second generation
        String second = ChangeLogNames.generationPath(log, 1);
        fx.setCreations(second, LAST);
        commit(writer, "box", "last1"); // its c-2147483647
        long afterLast1 = writer.latestChange("box") + 1;
        assertThat(afterLast1).isEqualTo(GENERATION + LAST + 2);

        long staleSession = sessionId(stale);
        CountDownLatch thirdHeld = new CountDownLatch(1);
        fx.server.hold(r -> r.getTxn() instanceof CreateTxn create
                        && create.getPath().equals(ChangeLogNames.generationPath(log, 2)), thirdHeld,
                r -> r.type == OpCode.multi && r.sessionId == staleSession);

        CompletableFuture<Void> rolling = CompletableFuture.runAsync(() -> commitUnchecked(writer, "box", "g2"));
        assertThat(thirdHeld.await(20, TimeUnit.SECONDS)).as("the third generation's creation held").isTrue();
        commit(stale, "box", "stale");
        rolling.get(20, TimeUnit.SECONDS);

        List<MetadataChange> after = writer.changes("box", afterLast1, 100).changes();
        assertThat(after).extracting(c -> c.updates().get(0).key()).as("every commit after last1")
                .containsExactlyInAnyOrder("stale", "g2");
        List<MetadataChange> all = writer.changes("box", 1, 100).changes();
        assertThat(all).hasSize(7);
        assertThat(all.subList(0, 5)).extracting(c -> c.updates().get(0).key())
                .containsExactly("k0", "early", "last", "g1", "last1");
    }

    /**
     * A writer of the second generation commits while the third is being made: the third is the second's sibling,
     * not its child, so nothing makes the server name that commit's record by the wrapped count in the full second
     * generation (under a child creation it would have been, landing there after the creation); it is refused there
     * and commits into the third, and every commit after the second generation's last is read once.
     */
    @Test
    void aWriterOfAFullGenerationCommitsIntoTheNextWhileItIsMade() throws Exception {
        ZooKeeperMetadataStore writer = fx.store(1000);
        ZooKeeperMetadataStore second = fx.store(1000);
        String log = writer.changeLog().path("box");
        commit(writer, "box", "k0");
        fx.setCreations(log, LAST);
        commit(writer, "box", "last");
        commit(writer, "box", "g1");
        commit(second, "box", "early"); // refused in the first generation: writes the second from now on
        fx.setCreations(ChangeLogNames.generationPath(log, 1), LAST);
        commit(writer, "box", "last1");
        long afterLast1 = writer.latestChange("box") + 1;
        long secondSession = sessionId(second);
        CountDownLatch thirdHeld = new CountDownLatch(1);
        fx.server.hold(r -> r.getTxn() instanceof CreateTxn create
                        && create.getPath().equals(ChangeLogNames.generationPath(log, 2)), thirdHeld,
                r -> r.type == OpCode.multi && r.sessionId == secondSession);

        CompletableFuture<Void> rolling = CompletableFuture.runAsync(() -> commitUnchecked(writer, "box", "g2"));
        assertThat(thirdHeld.await(20, TimeUnit.SECONDS)).isTrue();
        commit(second, "box", "window");
        rolling.get(20, TimeUnit.SECONDS);

        List<MetadataChange> after = pages(writer, afterLast1, 1);
        assertThat(after).extracting(c -> c.updates().get(0).key()).containsExactlyInAnyOrder("window", "g2");
        assertThat(after).extracting(MetadataChange::sequence).allMatch(s -> s > 2 * GENERATION);
        assertThat(writer.session().client().getChildren().forPath(ChangeLogNames.generationPath(log, 1)))
                .as("nothing after the second generation's last name").noneMatch(n -> n.startsWith("c--"));
    }

    /** Every change from {@code from}, page after page of {@code limit}. */
    private static List<MetadataChange> pages(ZooKeeperMetadataStore store, long from, int limit) {
        List<MetadataChange> all = new ArrayList<>();
        for (long cursor = from; ; ) {
            MetadataChangePage page = store.changes("box", cursor, limit);
            all.addAll(page.changes());
            if (!page.changes().isEmpty()) {
                cursor = page.changes().get(page.changes().size() - 1).sequence() + 1;
            }
            if (!page.hasMore()) {
                return all;
            }
        }
    }

    /**
     * A subscription whose cursor is just past a generation's last record wakes for the next generation's first
     * record, also when that generation is made after the subscription looked for it.
     */
    @Test
    void aWatchPastAFullGenerationWakesForTheNextGenerationsFirstRecord() throws Exception {
        ZooKeeperMetadataStore writer = fx.store(1000);
        ZooKeeperMetadataStore watcher = fx.store(1000);
        String log = writer.changeLog().path("box");
        commit(writer, "box", "k0");
        fx.setCreations(log, LAST);
        commit(writer, "box", "last");
        commit(writer, "box", "g1");
        fx.setCreations(ChangeLogNames.generationPath(log, 1), LAST);
        commit(writer, "box", "last1");
        long from = writer.latestChange("box") + 1;

        CountDownLatch woken = new CountDownLatch(1);
        Subscription s = watcher.watchChanges("box", from, woken::countDown);
        try {
            assertThat(woken.getCount()).as("nothing after last1 yet").isOne();
            commit(writer, "box", "g2");
            assertThat(woken.await(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            s.cancel();
        }
        assertThat(watcher.changes("box", from, 10).changes()).extracting(c -> c.updates().get(0).key())
                .containsExactly("g2");
    }

    /** The same on a server without persistent watches (before 3.6): the child watch of the newest generation. */
    @Test
    void aWatchByListingWakesForEachNextGenerationsFirstRecord() throws Exception {
        ZooKeeperMetadataStore writer = fx.store(1000);
        ZooKeeperMetadataStore watcher = fx.store(1000);
        java.lang.reflect.Field unsupported = ChangeLogWatches.class.getDeclaredField("unsupported");
        unsupported.setAccessible(true);
        unsupported.set(watcher.changeLog().watches(), true); // as against a server before 3.6
        String log = writer.changeLog().path("box");
        commit(writer, "box", "k0");
        for (int g = 0; g < 3; g++) {
            fx.setCreations(ChangeLogNames.generationPath(log, g), LAST);
            commit(writer, "box", "last" + g);
            long from = writer.latestChange("box") + 1;
            CountDownLatch woken = new CountDownLatch(1);
            Subscription s = watcher.watchChanges("box", from, woken::countDown);
            try {
                assertThat(woken.getCount()).as("nothing after last" + g + " yet").isOne();
                commit(writer, "box", "first" + (g + 1));
                assertThat(woken.await(10, TimeUnit.SECONDS)).isTrue();
            } finally {
                s.cancel();
            }
            assertThat(watcher.changes("box", from, 10).changes()).extracting(c -> c.updates().get(0).key())
                    .containsExactly("first" + (g + 1));
        }
    }

    private void whenReaderAsks(ZooKeeperMetadataStore reader, String path, ChangeLogLimitFixture.ThrowingRunnable action)
            throws Exception {
        long session = sessionId(reader);
        fx.server.onArrival(r -> r.sessionId == session && r.type == OpCode.exists
                && path.equals(r.readRequestRecordNoException(ExistsRequest::new).getPath()), action);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

}
