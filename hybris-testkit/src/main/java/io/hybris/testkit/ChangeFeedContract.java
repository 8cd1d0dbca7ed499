/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeCursorExpiredException;
import io.hybris.ChangeListener;
import io.hybris.ChangePage;
import io.hybris.ChangeSubscription;
import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.InvalidRequestException;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The change feed (the sync-backend issue): {@link Hybris#changes} pages and {@link Hybris#subscribe}
 * subscriptions over the metadata store's change log — every commit listed in commit order with the version it
 * committed, cursors that survive a restart (also inside a transaction), prefixes, compaction and what an expired
 * cursor gets, at-least-once delivery with four writers and a subscriber restart, and close. Every metadata store
 * with a change log runs it.
 */
public abstract class ChangeFeedContract extends HybrisContractFixture {

    /** A store like {@link #newMetadataStore()} whose change logs keep only the newest {@code retention} commits. */
    protected abstract MetadataStore newMetadataStore(int retention);

    @Test
    void pagesListEveryCommitInOrderWithItsVersion() {
        Hybris h = openPlain();
        List<VersionInfo> committed = new ArrayList<>();
        committed.add(h.put(C, "a", bytes("1")));
        committed.add(h.put(C, "b", bytes("2")));
        committed.add(h.put(C, "a", bytes("3"), PutOptions.ifMatch(committed.get(0).version())));
        committed.add(h.delete(C, "b").orElseThrow());
        Map<String, byte[]> txn = new LinkedHashMap<>();
        txn.put("t1", bytes("x"));
        txn.put("t2", bytes("y"));
        Map<String, VersionInfo> t = h.tput(C, txn);
        h.put("other", "a", bytes("elsewhere"));

        ChangePage all = h.changes(C, "", ChangeCursor.BEGINNING, 100);
        assertThat(all.hasMore()).isFalse();
        assertThat(all.changes()).extracting(Change::key).containsExactly("a", "b", "a", "b", "t1", "t2");
        assertThat(all.changes()).extracting(Change::version).containsExactly(committed.get(0), committed.get(1),
                committed.get(2), committed.get(3), t.get("t1"), t.get("t2"));
        assertThat(all.changes()).extracting(Change::isDeletion).containsExactly(false, false, false, true, false,
                false);
        assertThat(h.changes(C, "", all.cursor(), 100).changes()).isEmpty();
        assertThat(all.cursor()).isEqualTo(h.latestCursor(C));

        // one commit per page: the transaction's two keys come together
        List<String> paged = new ArrayList<>();
        ChangeCursor cursor = ChangeCursor.BEGINNING;
        int pages = 0;
        ChangePage p;
        do {
            p = h.changes(C, "", cursor, 1);
            p.changes().forEach(c -> paged.add(c.key()));
            cursor = p.cursor();
            pages++;
        } while (p.hasMore() || !p.changes().isEmpty());
        assertThat(paged).containsExactly("a", "b", "a", "b", "t1", "t2");
        assertThat(pages).isBetween(5, 6);
        assertThat(h.changes("other", "", ChangeCursor.BEGINNING, 10).changes()).extracting(Change::key)
                .containsExactly("a");
        assertThat(h.changes("empty", "", ChangeCursor.BEGINNING, 10).changes()).isEmpty();
    }

    @Test
    void cursorsResumeExactlyAfterTheirChangeAlsoInsideATransactionAndFromTheirText() {
        Hybris h = openPlain();
        h.put(C, "before", bytes("0"));
        Map<String, byte[]> txn = new LinkedHashMap<>();
        txn.put("k1", bytes("1"));
        txn.put("k2", bytes("2"));
        txn.put("k3", bytes("3"));
        h.tput(C, txn);
        h.put(C, "after", bytes("4"));
        List<Change> all = h.changes(C, "", ChangeCursor.BEGINNING, 100).changes();
        assertThat(all).extracting(Change::key).containsExactly("before", "k1", "k2", "k3", "after");
        for (int i = 0; i < all.size(); i++) {
            ChangeCursor saved = ChangeCursor.parse(all.get(i).cursor().toString());
            assertThat(saved).isEqualTo(all.get(i).cursor());
            assertThat(h.changes(C, "", saved, 100).changes()).as("after change %d", i)
                    .containsExactlyElementsOf(all.subList(i + 1, all.size()));
        }
    }

    @Test
    void aPrefixFiltersKeysAndTheCursorStillMovesPastOtherKeys() {
        Hybris h = openPlain();
        h.put(C, "docs/a", bytes("1"));
        h.put(C, "pics/b", bytes("2"));
        h.put(C, "docs/c", bytes("3"));
        h.put(C, "pics/d", bytes("4"));
        ChangePage docs = h.changes(C, "docs/", ChangeCursor.BEGINNING, 100);
        assertThat(docs.changes()).extracting(Change::key).containsExactly("docs/a", "docs/c");
        assertThat(docs.cursor()).isEqualTo(h.latestCursor(C));
        ChangePage one = h.changes(C, "pics/", ChangeCursor.BEGINNING, 1);
        assertThat(one.changes()).isEmpty(); // the first commit is not under pics/
        assertThat(one.hasMore()).isTrue();
        assertThat(h.changes(C, "pics/", one.cursor(), 100).changes()).extracting(Change::key)
                .containsExactly("pics/b", "pics/d");
    }

    @Test
    void latestCursorFollowsOnlyNewChangesAndBadInputIsRejectedNamingIt() {
        Hybris h = openPlain();
        assertThat(h.latestCursor(C)).isEqualTo(ChangeCursor.BEGINNING);
        h.put(C, "old", bytes("1"));
        ChangeCursor now = h.latestCursor(C);
        h.put(C, "new", bytes("2"));
        assertThat(h.changes(C, "", now, 10).changes()).extracting(Change::key).containsExactly("new");

        assertThatThrownBy(() -> ChangeCursor.parse("garbage")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("'garbage' is not a change cursor");
        assertThatThrownBy(() -> ChangeCursor.parse(null)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> h.changes(C, "", null, 10)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("cursor is null");
        assertThatThrownBy(() -> h.changes(C, "", now, 0)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("1 to 10,000");
        assertThatThrownBy(() -> h.changes("Bad_Container", "", now, 10)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> h.subscribe(C, "", now, null)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("listener is null");
    }

    @Test
    void fourWritersAndARestartedSubscriberMissNothingAndKeepPerKeyOrder() throws Exception {
        Hybris writerClient = openPlain();
        Hybris readerClient = openPlain();
        Recorder first = new Recorder();
        ChangeSubscription s1 = readerClient.subscribe(C, "", ChangeCursor.BEGINNING, first);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch halfway = new CountDownLatch(4);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            writers.add(pool.submit(() -> {
                for (int i = 0; i < 30; i++) {
                    // each writer its own keys: a put that loses a race on a shared key commits nothing (it is
                    // ordered just before the winner), so only these are sure to be in the log
                    String key = "w" + writer + "-" + (i % 3);
                    acknowledged.add(writerClient.put(C, key, bytes(writer + "-" + i)).version());
                    writerClient.put(C, "shared", bytes(writer + "-" + i));
                    if (i == 14) {
                        halfway.countDown();
                    }
                }
                return null;
            }));
        }
        halfway.await();
        await().atMost(AWAIT).until(() -> !first.changes.isEmpty());
        s1.close();
        assertThat(s1.isActive()).isFalse();
        ChangeCursor saved = ChangeCursor.parse(s1.cursor().toString()); // as an application would persist it
        int deliveredBeforeClose = first.changes.size();
        Recorder second = new Recorder();
        try (ChangeSubscription s2 = readerClient.subscribe(C, "", saved, second)) {
            for (Future<?> f : writers) {
                f.get();
            }
            await().atMost(AWAIT).untilAsserted(() -> {
                Set<String> delivered = ConcurrentHashMap.newKeySet();
                first.changes.forEach(c -> delivered.add(c.version().version()));
                second.changes.forEach(c -> delivered.add(c.version().version()));
                assertThat(delivered).containsAll(acknowledged);
            });
            assertThat(s2.isActive()).isTrue();
        } finally {
            pool.shutdownNow();
        }
        assertThat(first.changes).hasSize(deliveredBeforeClose); // nothing after close returned
        // together, in delivery order: per key strictly increasing versions; and exactly what changes() lists
        List<Change> delivered = new ArrayList<>(first.changes);
        delivered.addAll(second.changes);
        Map<String, VersionInfo> last = new ConcurrentHashMap<>();
        for (Change c : delivered) {
            VersionInfo before = last.put(c.key(), c.version());
            assertThat(before == null || TIMESTAMP_ORDER.compare(before, c.version()) < 0)
                    .as("%s after %s", c.version(), before).isTrue();
        }
        assertThat(delivered).containsExactlyElementsOf(readerClient.changes(C, "", ChangeCursor.BEGINNING,
                10_000).changes());
        assertThat(first.stopped.get()).isNull();
        assertThat(second.stopped.get()).isNull();
    }

    @Test
    void aListenerThatThrowsGetsTheSameChangeAgainAndNothingIsSkipped() {
        Hybris h = openPlain();
        AtomicInteger failuresLeft = new AtomicInteger(2);
        List<String> seen = new CopyOnWriteArrayList<>();
        ChangeListener flaky = change -> {
            seen.add(change.key());
            if (change.key().equals("b") && failuresLeft.getAndDecrement() > 0) {
                throw new IllegalStateException("the application could not apply " + change.key() + " yet");
            }
        };
        try (ChangeSubscription s = h.subscribe(C, "", ChangeCursor.BEGINNING, flaky)) {
            h.put(C, "a", bytes("1"));
            h.put(C, "b", bytes("2"));
            h.put(C, "c", bytes("3"));
            await().atMost(AWAIT).until(() -> seen.contains("c"));
            assertThat(seen).containsExactly("a", "b", "b", "b", "c");
            assertThat(s.cursor()).isEqualTo(h.latestCursor(C));
        }
    }

    /**
     * Delivery is at least once: a subscription closed while its listener keeps failing on a change ends with its
     * cursor before that change, so subscribing again from it delivers that change and the rest of its page.
     */
    @Test
    void aSubscriptionClosedWhileItsListenerFailsKeepsItsCursorBeforeTheChangeNotTaken() {
        Hybris h = openPlain();
        h.put(C, "a", bytes("1"));
        h.put(C, "b", bytes("2"));
        h.put(C, "c", bytes("3"));
        List<Change> all = h.changes(C, "", ChangeCursor.BEGINNING, 100).changes();
        List<String> seen = new CopyOnWriteArrayList<>();
        ChangeSubscription s = h.subscribe(C, "", ChangeCursor.BEGINNING, change -> {
            seen.add(change.key());
            if (change.key().equals("b")) {
                throw new IllegalStateException("the application cannot apply b yet");
            }
        });
        await().atMost(AWAIT).until(() -> seen.contains("b"));
        s.close();
        assertThat(s.isActive()).isFalse();
        assertThat(s.cursor()).as("not past the change the listener did not take").isEqualTo(all.get(0).cursor());
        Recorder again = new Recorder();
        try (ChangeSubscription resumed = h.subscribe(C, "", s.cursor(), again)) {
            await().atMost(AWAIT).until(() -> again.changes.size() == 2);
            assertThat(again.changes).extracting(Change::key).containsExactly("b", "c");
        }
    }

    @Test
    void aCursorOlderThanCompactionExpiresAndTheSubscriberIsToldSo() {
        MetadataStore small = newMetadataStore(5);
        try {
            Hybris h = open(config(raw).metadataStore(small));
            for (int i = 0; i < 30; i++) {
                h.put(C, "k" + i, bytes(Integer.toString(i)));
            }
            await().atMost(AWAIT).untilAsserted(() -> assertThatThrownBy(
                    () -> h.changes(C, "", ChangeCursor.BEGINNING, 100))
                    .isInstanceOfSatisfying(ChangeCursorExpiredException.class,
                            e -> assertThat(e.cursor()).isEqualTo(ChangeCursor.BEGINNING))
                    .hasMessageContaining("compacted").hasMessageContaining("resync"));
            // a recent cursor still reads on
            ChangeCursor recent = h.latestCursor(C);
            h.put(C, "fresh", bytes("x"));
            assertThat(h.changes(C, "", recent, 100).changes()).extracting(Change::key).containsExactly("fresh");

            Recorder r = new Recorder();
            ChangeSubscription s = h.subscribe(C, "", ChangeCursor.BEGINNING, r);
            await().atMost(AWAIT).until(() -> r.stopped.get() != null);
            assertThat(r.stopped.get()).isInstanceOf(ChangeCursorExpiredException.class);
            assertThat(r.changes).isEmpty();
            assertThat(s.isActive()).isFalse();
        } finally {
            clients.forEach(Hybris::close);
            clients.clear();
            small.close();
        }
    }

    @Test
    void closingTheClientStopsItsSubscriptionsWithClientClosed() {
        Hybris h = openPlain();
        Recorder r = new Recorder();
        ChangeSubscription s = h.subscribe(C, "", ChangeCursor.BEGINNING, r);
        h.put(C, "a", bytes("1"));
        await().atMost(AWAIT).until(() -> r.changes.size() == 1);
        h.close();
        await().atMost(AWAIT).until(() -> r.stopped.get() != null);
        assertThat(r.stopped.get()).isInstanceOf(ClientClosedException.class);
        assertThat(s.isActive()).isFalse();
        assertThatThrownBy(() -> h.subscribe(C, "", ChangeCursor.BEGINNING, r))
                .isInstanceOf(ClientClosedException.class);
    }

    /**
     * A cursor ahead of the container's log (another container's, or one saved before the metadata store was
     * restored) would skip every commit numbered below it: pages and subscriptions refuse it as expired (resync).
     */
    @Test
    void aCursorAheadOfTheContainersLogIsRefusedAsExpiredNotReadOnSkippingCommits() {
        Hybris h = openPlain();
        for (int i = 0; i < 10; i++) {
            h.put("busy", "k" + i, bytes("x"));
        }
        ChangeCursor foreign = h.latestCursor("busy");
        assertThatThrownBy(() -> h.changes(C, "", foreign, 100)).as("a container without a log yet")
                .isInstanceOf(ChangeCursorExpiredException.class);
        h.put(C, "first", bytes("1"));
        assertThatThrownBy(() -> h.changes(C, "", foreign, 100))
                .isInstanceOfSatisfying(ChangeCursorExpiredException.class,
                        e -> assertThat(e.cursor()).isEqualTo(foreign))
                .hasMessageContaining("ahead of the change log").hasMessageContaining("resync");
        Recorder r = new Recorder();
        ChangeSubscription s = h.subscribe(C, "", foreign, r);
        await().atMost(AWAIT).until(() -> r.stopped.get() != null);
        assertThat(r.stopped.get()).isInstanceOf(ChangeCursorExpiredException.class);
        assertThat(s.isActive()).isFalse();
        // the container's own cursors still read on
        assertThat(h.changes(C, "", ChangeCursor.BEGINNING, 100).changes()).extracting(Change::key)
                .containsExactly("first");
        assertThat(h.changes(C, "", h.latestCursor(C), 100).changes()).isEmpty();
    }

    /** A prefix is checked as {@code list} checks it: an unpaired surrogate would match keys holding '?'. */
    @Test
    void aPrefixNoKeyCanHaveIsRejectedByPagesAndSubscriptions() {
        Hybris h = openPlain();
        h.put(C, "?q", bytes("1"));
        assertThatThrownBy(() -> h.changes(C, "\uD83D", ChangeCursor.BEGINNING, 100))
                .isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> h.subscribe(C, "\uD83D", ChangeCursor.BEGINNING, new Recorder()))
                .isInstanceOf(InvalidRequestException.class);
    }

    /**
     * A listener that throws an Error (StackOverflowError, NoClassDefFoundError) ends the subscription visibly:
     * {@code onStopped} names it and {@code isActive()} turns false, instead of a dead thread behind a subscription
     * that still reports itself active.
     */
    @Test
    void aListenerThatThrowsAnErrorEndsTheSubscriptionAndSaysSo() {
        Hybris h = openPlain();
        Recorder r = new Recorder() {
            @Override
            public void onChange(Change change) {
                super.onChange(change);
                throw new StackOverflowError("the application recursed too deep");
            }
        };
        ChangeSubscription s = h.subscribe(C, "", ChangeCursor.BEGINNING, r);
        h.put(C, "a", bytes("1"));
        await().dontCatchUncaughtExceptions().atMost(AWAIT).until(() -> r.stopped.get() != null);
        assertThat(r.stopped.get()).hasCauseInstanceOf(StackOverflowError.class)
                .hasMessageContaining("ended at " + ChangeCursor.BEGINNING);
        assertThat(s.isActive()).isFalse();
        assertThat(s.cursor()).as("not past the change the listener did not take").isEqualTo(ChangeCursor.BEGINNING);
        assertThat(r.changes).extracting(Change::key).containsExactly("a");
    }

    /** Hybris's timestamp order: sequence number, then client id, then the write id ending the version id. */
    static final java.util.Comparator<VersionInfo> TIMESTAMP_ORDER = java.util.Comparator
            .comparingLong(VersionInfo::sequence)
            .thenComparing(VersionInfo::clientId)
            .thenComparingLong(v -> Long.parseLong(v.version().substring(v.version().lastIndexOf('.') + 1), 36));

    /** Records what a subscription delivered. */
    static class Recorder implements ChangeListener {
        final List<Change> changes = new CopyOnWriteArrayList<>();
        final AtomicReference<HybrisException> stopped = new AtomicReference<>();

        @Override
        public void onChange(Change change) {
            changes.add(change);
        }

        @Override
        public void onStopped(HybrisException cause) {
            stopped.set(cause);
        }
    }
}
