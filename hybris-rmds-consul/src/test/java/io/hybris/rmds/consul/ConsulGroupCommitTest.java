/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Group commit on a real Consul agent: many threads sharing a store commit different keys of one container and
 * every commit lands once in the change log, in an order consistent with the order the commits returned; a batch
 * with a conflicting commit fails only that commit; two stores (two clients) writing one container race on the
 * head and still log every commit once.
 */
class ConsulGroupCommitTest {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();
    private static ConsulHttp raw;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeAll
    static void connectRaw() {
        raw = new ConsulHttp(CONSUL.address());
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static ConsulMetadataStore store(String prefix) {
        return ConsulMetadataStore.builder().address(CONSUL.address()).keyPrefix(prefix)
                .operationTimeout(Duration.ofSeconds(20)).build();
    }

    private static String uniquePrefix() {
        return CONSUL.uniquePrefix("group-");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** One commit as a caller saw it: its key and value, and logical times when it started and returned. */
    private record Done(String key, String value, long started, long returned) {
    }

    /**
     * {@code writers} threads per store, each committing {@code commits} versions of its own key in container
     * {@code c} one after the other (create, then updates at the version read back), stamping each commit with a
     * shared logical clock.
     */
    private List<Done> write(List<ConsulMetadataStore> stores, String c, int writers, int commits)
            throws Exception {
        AtomicLong clock = new AtomicLong();
        List<Done> done = new CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int s = 0; s < stores.size(); s++) {
            ConsulMetadataStore store = stores.get(s);
            for (int w = 0; w < writers; w++) {
                String key = "s" + s + "-w" + w;
                futures.add(threads.submit(() -> {
                    start.await();
                    MetadataKey k = new MetadataKey(c, key);
                    MetadataVersion version = MetadataVersion.ABSENT;
                    for (int n = 0; n < commits; n++) {
                        String value = key + "#" + n;
                        long started = clock.incrementAndGet();
                        store.conditionalUpdate(new MetadataUpdate(k, bytes(value), version));
                        done.add(new Done(key, value, started, clock.incrementAndGet()));
                        version = store.read(k).orElseThrow().version();
                    }
                    return null;
                }));
            }
        }
        start.countDown();
        for (Future<?> f : futures) {
            f.get(120, TimeUnit.SECONDS); // throws if any commit failed
        }
        return done;
    }

    /** The whole change log of {@code c}, page by page. */
    private static List<MetadataChange> log(ConsulMetadataStore store, String c) {
        List<MetadataChange> all = new ArrayList<>();
        long from = 1;
        MetadataChangePage page;
        do {
            page = store.changes(c, from, 256);
            all.addAll(page.changes());
            if (!page.changes().isEmpty()) {
                from = page.changes().get(page.changes().size() - 1).sequence() + 1;
            }
        } while (page.hasMore());
        return all;
    }

    /**
     * Asserts every commit in {@code done} is in {@code log} exactly once, sequences 1..n without gaps, and that a
     * commit that returned before another started has the lower sequence number.
     */
    private static void assertLogMatches(List<MetadataChange> log, List<Done> done) {
        assertThat(log).extracting(MetadataChange::sequence)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, done.size()).boxed().toList());
        Map<String, Long> sequenceOf = new HashMap<>();
        for (MetadataChange change : log) {
            assertThat(change.updates()).hasSize(1);
            MetadataChange.Update u = change.updates().get(0);
            String id = u.key() + "=" + new String(u.value(), StandardCharsets.UTF_8);
            assertThat(sequenceOf.put(id, change.sequence())).as("logged once: %s", id).isNull();
        }
        Set<String> committed = new HashSet<>();
        for (Done d : done) {
            committed.add(d.key() + "=" + d.value());
        }
        assertThat(sequenceOf.keySet()).isEqualTo(committed);
        List<Done> byReturn = new ArrayList<>(done);
        byReturn.sort((x, y) -> Long.compare(x.returned(), y.returned()));
        for (Done before : byReturn) {
            long seq = sequenceOf.get(before.key() + "=" + before.value());
            for (Done after : done) {
                if (after.started() > before.returned()) {
                    assertThat(sequenceOf.get(after.key() + "=" + after.value()))
                            .as("%s returned before %s started", before, after).isGreaterThan(seq);
                }
            }
        }
    }

    @Test
    void manyThreadsSharingOneStoreCommitDifferentKeysOfOneContainerAndEachCommitIsLoggedOnceInOrder()
            throws Exception {
        try (ConsulMetadataStore store = store(uniquePrefix())) {
            List<Done> done = write(List.of(store), "shared", 48, 10);

            assertThat(done).hasSize(480);
            assertLogMatches(log(store, "shared"), done);
            assertThat(store.latestChange("shared")).isEqualTo(480);
            for (int w = 0; w < 48; w++) {
                assertThat(new String(store.read(new MetadataKey("shared", "s0-w" + w)).orElseThrow().value(),
                        StandardCharsets.UTF_8)).isEqualTo("s0-w" + w + "#9");
            }
        }
    }

    @Test
    void twoClientsWritingOneContainerRaceOnTheHeadAndStillLogEveryCommitOnceInOrder() throws Exception {
        String prefix = uniquePrefix();
        try (ConsulMetadataStore one = store(prefix); ConsulMetadataStore two = store(prefix)) {
            List<Done> done = write(List.of(one, two), "raced", 12, 10);

            assertThat(done).hasSize(240);
            assertLogMatches(log(one, "raced"), done);
            assertThat(two.latestChange("raced")).isEqualTo(240);
        }
    }

    @Test
    void aConflictingCommitInABatchFailsOnlyItsCallerAndTheOthersCommitInOneTransaction() throws Exception {
        String prefix = uniquePrefix();
        try (ConsulMetadataStore store = store(prefix)) {
            MetadataKey b = new MetadataKey("c", "b");
            MetadataKey f = new MetadataKey("c", "f");
            store.conditionalUpdate(new MetadataUpdate(b, bytes("b1"), MetadataVersion.ABSENT));
            MetadataVersion staleB = store.read(b).orElseThrow().version();
            store.conditionalUpdate(new MetadataUpdate(b, bytes("b2"), staleB));
            store.conditionalUpdate(new MetadataUpdate(f, bytes("f1"), MetadataVersion.ABSENT));
            MetadataVersion currentF = store.read(f).orElseThrow().version();
            long before = store.latestChange("c");
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            ConsulCommit a = new ConsulCommit(List.of(new MetadataUpdate(new MetadataKey("c", "a"), bytes("a1"),
                    MetadataVersion.ABSENT)), prefix.length(), giveUp);
            ConsulCommit staleUpdate = new ConsulCommit(List.of(new MetadataUpdate(b, bytes("lost"), staleB)),
                    prefix.length(), giveUp);
            ConsulCommit tput = new ConsulCommit(List.of(
                    new MetadataUpdate(new MetadataKey("c", "t1"), bytes("t1"), MetadataVersion.ABSENT),
                    new MetadataUpdate(f, bytes("f2"), currentF)), prefix.length(), giveUp);
            ConsulCommit d = new ConsulCommit(List.of(new MetadataUpdate(new MetadataKey("c", "d"), bytes("d1"),
                    MetadataVersion.ABSENT)), prefix.length(), giveUp);
            ConsulCommit existing = new ConsulCommit(List.of(
                    new MetadataUpdate(new MetadataKey("c", "u2"), bytes("u2"), MetadataVersion.ABSENT),
                    new MetadataUpdate(f, bytes("no"), MetadataVersion.ABSENT)), prefix.length(), giveUp);

            store.batchWrite().commit(List.of(a, staleUpdate, tput, existing, d), giveUp);

            a.outcome();
            tput.outcome();
            d.outcome();
            assertThatThrownBy(staleUpdate::outcome).isInstanceOf(VersionConflictException.class)
                    .hasMessageContaining(b.toString());
            assertThatThrownBy(existing::outcome).isInstanceOf(VersionConflictException.class)
                    .hasMessageContaining("atomic update of 2 keys aborted");
            assertThat(store.read(b).orElseThrow().value()).isEqualTo(bytes("b2"));
            assertThat(store.read(new MetadataKey("c", "u2"))).isEmpty();
            assertThat(store.read(f).orElseThrow().value()).isEqualTo(bytes("f2"));
            List<MetadataChange> added = store.changes("c", before + 1, 10).changes();
            assertThat(added).extracting(MetadataChange::sequence).containsExactly(before + 1, before + 2, before + 3);
            assertThat(added).extracting(ch -> ch.updates().stream().map(MetadataChange.Update::key).toList())
                    .containsExactly(List.of("a"), List.of("t1", "f"), List.of("d"));
            String log = prefix + "/.changes/c/log/";
            long index = raw.modifyIndex(log + String.format("%020d", before + 1));
            assertThat(raw.modifyIndex(log + String.format("%020d", before + 3))).as("one transaction")
                    .isEqualTo(index).isEqualTo(store.read(new MetadataKey("c", "d")).orElseThrow().version().value());
        }
    }

    @Test
    void commitsQueuedBehindABatchInFlightGoInOneTransactionAndOnlyTheConflictingCallerFails() throws Exception {
        String prefix = uniquePrefix();
        try (ConsulMetadataStore store = store(prefix)) {
            MetadataKey taken = new MetadataKey("q", "taken");
            store.conditionalUpdate(new MetadataUpdate(taken, bytes("first"), MetadataVersion.ABSENT));
            long before = store.latestChange("q");
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<Integer> sizes = new CopyOnWriteArrayList<>();
            ConsulCommitQueue queue = new ConsulCommitQueue((container, batch, giveUp) -> {
                sizes.add(batch.size());
                if (sizes.size() == 1) {
                    holding.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                store.batchWrite().commit(batch, giveUp);
            }, "test");
            List<String> keys = List.of("k0", "k1", "k2", "taken", "k3", "k4");
            List<CompletableFuture<Void>> callers = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                MetadataUpdate u = new MetadataUpdate(new MetadataKey("q", keys.get(i)), bytes(keys.get(i) + "!"),
                        MetadataVersion.ABSENT);
                callers.add(CompletableFuture.runAsync(() -> {
                    try {
                        queue.commit("q", new ConsulCommit(List.of(u), prefix.length(),
                                System.nanoTime() + TimeUnit.SECONDS.toNanos(20)));
                    } catch (VersionConflictException e) {
                        throw new CompletionException(e);
                    }
                }, threads));
                if (i == 0) {
                    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
                } else {
                    int queued = i;
                    await().atMost(Duration.ofSeconds(10)).until(() -> queue.queued("q") == queued);
                }
            }

            release.countDown();

            for (int i = 0; i < keys.size(); i++) {
                CompletableFuture<Void> f = callers.get(i);
                if (keys.get(i).equals("taken")) {
                    assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS))
                            .hasCauseInstanceOf(VersionConflictException.class);
                } else {
                    f.get(20, TimeUnit.SECONDS);
                }
            }
            assertThat(sizes).containsExactly(1, 5);
            assertThat(store.read(taken).orElseThrow().value()).isEqualTo(bytes("first"));
            List<MetadataChange> added = store.changes("q", before + 1, 10).changes();
            assertThat(added).extracting(ch -> ch.updates().get(0).key())
                    .containsExactly("k0", "k1", "k2", "k3", "k4");
            assertThat(added).extracting(MetadataChange::sequence)
                    .containsExactly(before + 1, before + 2, before + 3, before + 4, before + 5);
        }
    }
}
