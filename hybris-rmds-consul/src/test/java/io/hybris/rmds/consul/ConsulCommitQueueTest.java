/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@link ConsulCommitQueue} without Consul: a fake committer that records the batches it gets and can hold the
 * first one until the test has queued the commits it wants behind it, so every batch's make-up is known.
 */
class ConsulCommitQueueTest {
    private static final String C = "photos";
    private final ExecutorService callers = Executors.newCachedThreadPool();

    @AfterEach
    void stopCallers() {
        callers.shutdownNow();
    }

    /** Records batches; holds the first batch until {@link #release} counts down. */
    private static final class FakeCommitter implements ConsulCommitQueue.BatchCommitter {
        final List<List<ConsulCommit>> batches = new CopyOnWriteArrayList<>();
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> conflicting = new CopyOnWriteArrayList<>();
        final List<Thread> committing = new CopyOnWriteArrayList<>();

        @Override
        public void commit(String container, List<ConsulCommit> batch, long giveUpNanos) {
            batches.add(List.copyOf(batch));
            committing.add(Thread.currentThread());
            if (batches.size() == 1) {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            for (ConsulCommit c : batch) {
                if (conflicting.contains(c.updates().get(0).key().key())) {
                    c.fail(new VersionConflictException(c.what() + " conflicts"));
                } else {
                    c.succeed();
                }
            }
        }
    }

    private static ConsulCommit commit(String key, Duration giveUp) {
        return commit(List.of(key), giveUp);
    }

    private static ConsulCommit commit(List<String> keys, Duration giveUp) {
        List<MetadataUpdate> updates = new ArrayList<>();
        for (String k : keys) {
            updates.add(new MetadataUpdate(new MetadataKey(C, k), k.getBytes(StandardCharsets.UTF_8),
                    MetadataVersion.ABSENT));
        }
        return new ConsulCommit(updates, 6, System.nanoTime() + giveUp.toNanos());
    }

    private static ConsulCommit commit(String key, byte[] value, Duration giveUp) {
        return new ConsulCommit(List.of(new MetadataUpdate(new MetadataKey(C, key), value, MetadataVersion.ABSENT)),
                6, System.nanoTime() + giveUp.toNanos());
    }

    /** Makes and commits a commit on its own thread (the caller's thread must be the one that made it). */
    private CompletableFuture<Void> submit(ConsulCommitQueue queue, String key, Duration giveUp) {
        return CompletableFuture.runAsync(() -> commitOrThrow(queue, commit(key, giveUp)), callers);
    }

    /** Commits {@code commit} on another thread: the commit's waiter is the thread that made it, so wrap. */
    private CompletableFuture<Void> run(ConsulCommitQueue queue, ConsulCommit commit) {
        return CompletableFuture.runAsync(() -> commitOrThrow(queue, commit), callers);
    }

    private static void commitOrThrow(ConsulCommitQueue queue, ConsulCommit commit) {
        try {
            queue.commit(C, commit);
        } catch (VersionConflictException e) {
            throw new CompletionException(e);
        }
    }

    private static void awaitQueued(ConsulCommitQueue queue, int n) {
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.queued(C) == n);
    }

    @Test
    void aLoneCommitGoesAtOnceOnItsCallersThread() throws Exception {
        AtomicReference<Thread> committing = new AtomicReference<>();
        ConsulCommitQueue queue = new ConsulCommitQueue((c, batch, giveUp) -> {
            committing.set(Thread.currentThread());
            batch.forEach(ConsulCommit::succeed);
        }, "test");

        queue.commit(C, commit("a", Duration.ofSeconds(10)));

        assertThat(committing.get()).isSameAs(Thread.currentThread());
        assertThat(queue.queued(C)).isZero();
        assertThat(queue.lanes()).as("an idle container keeps no queue").isZero();
    }

    @Test
    void commitsToManyContainersLeaveNoQueueBehindAndNoneIsLost() throws Exception {
        List<String> committed = java.util.Collections.synchronizedList(new ArrayList<>());
        ConsulCommitQueue queue = new ConsulCommitQueue((c, batch, giveUp) -> batch.forEach(x -> {
            committed.add(c + "/" + x.updates().get(0).key().key());
            x.succeed();
        }), "test");
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String container = "c" + (i % 7);
            String key = "k" + i;
            all.add(CompletableFuture.runAsync(() -> {
                try {
                    queue.commit(container, commit(key, Duration.ofSeconds(30)));
                } catch (VersionConflictException e) {
                    throw new CompletionException(e);
                }
            }, callers));
        }
        for (CompletableFuture<Void> f : all) {
            f.get(30, TimeUnit.SECONDS);
        }

        assertThat(committed).hasSize(400).doesNotHaveDuplicates();
        assertThat(queue.lanes()).as("every container idle again").isZero();
    }

    @Test
    void commitsQueuedBehindABatchInFlightGoTogetherAndEachGetsItsOwnOutcome() throws Exception {
        FakeCommitter committer = new FakeCommitter();
        committer.conflicting.add("k3");
        ConsulCommitQueue queue = new ConsulCommitQueue(committer, "test");
        CompletableFuture<Void> first = submit(queue, "k0", Duration.ofSeconds(30));
        assertThat(committer.holding.await(10, TimeUnit.SECONDS)).isTrue();
        List<CompletableFuture<Void>> queued = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            queued.add(submit(queue, "k" + i, Duration.ofSeconds(30)));
            awaitQueued(queue, i);
        }

        committer.release.countDown();

        first.get(10, TimeUnit.SECONDS);
        for (int i = 1; i <= 5; i++) {
            CompletableFuture<Void> f = queued.get(i - 1);
            if (i == 3) {
                assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(
                        VersionConflictException.class).hasMessageContaining("k3");
            } else {
                f.get(10, TimeUnit.SECONDS);
            }
        }
        assertThat(committer.batches).hasSize(2);
        assertThat(committer.batches.get(1)).extracting(c -> c.updates().get(0).key().key())
                .containsExactly("k1", "k2", "k3", "k4", "k5");
    }

    /**
     * A committer that throws an {@code Error} (out of memory, a stack overflow in a JSON library) must not leave
     * the callers of its batch waiting for ever, nor the container's queue led by nobody.
     */
    @Test
    void anErrorInTheCommitterEndsEveryCallOfItsBatchAndTheQueueGoesOn() throws Exception {
        FakeCommitter held = new FakeCommitter();
        java.util.concurrent.atomic.AtomicBoolean thrown = new java.util.concurrent.atomic.AtomicBoolean();
        ConsulCommitQueue queue = new ConsulCommitQueue((c, batch, giveUp) -> {
            if (held.batches.size() == 1 && thrown.compareAndSet(false, true)) {
                throw new StackOverflowError("committer broke");
            }
            held.commit(c, batch, giveUp);
        }, "test");
        CompletableFuture<Void> first = submit(queue, "k0", Duration.ofSeconds(30));
        assertThat(held.holding.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Void> second = submit(queue, "k1", Duration.ofSeconds(30));
        awaitQueued(queue, 1);
        CompletableFuture<Void> third = submit(queue, "k2", Duration.ofSeconds(30));
        awaitQueued(queue, 2);

        held.release.countDown(); // the first batch commits; the next one (k1, k2) meets the Error

        first.get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).hasRootCauseInstanceOf(StackOverflowError.class);
        assertThatThrownBy(() -> third.get(10, TimeUnit.SECONDS)).hasRootCauseInstanceOf(StackOverflowError.class);
        submit(queue, "k3", Duration.ofSeconds(30)).get(10, TimeUnit.SECONDS);
        assertThat(held.batches).extracting(b -> b.get(0).updates().get(0).key().key()).containsExactly("k0", "k3");
    }

    @Test
    void aBatchStaysWithinSixtyFourOperationsCountingTheHeadAndOneRecordPerCommit() throws Exception {
        FakeCommitter committer = new FakeCommitter();
        ConsulCommitQueue queue = new ConsulCommitQueue(committer, "test");
        CompletableFuture<Void> first = submit(queue, "k0", Duration.ofSeconds(30));
        assertThat(committer.holding.await(10, TimeUnit.SECONDS)).isTrue();
        List<CompletableFuture<Void>> queued = new ArrayList<>();
        for (int i = 1; i <= 70; i++) {
            queued.add(submit(queue, "k" + i, Duration.ofSeconds(30)));
            awaitQueued(queue, i);
        }

        committer.release.countDown();

        first.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<Void> f : queued) {
            f.get(10, TimeUnit.SECONDS);
        }
        // 1 head + 2 per single-key commit: 31 commits = 63 operations, a 32nd would make 65
        assertThat(committer.batches).extracting(List::size).containsExactly(1, 31, 31, 8);
        // the first leader commits two more batches itself, then hands over to the oldest caller still queued; a
        // batch carrying other callers' commits is sent from the queue's own threads, the leader's own from its thread
        assertThat(queue.handovers()).isEqualTo(1);
        assertThat(committer.committing.get(0).getName()).doesNotStartWith("hybris-consul-commit-");
        assertThat(committer.committing.subList(1, 4)).allMatch(t -> t.getName().startsWith("hybris-consul-commit-"));
        for (List<ConsulCommit> batch : committer.batches) {
            assertThat(1 + batch.stream().mapToInt(ConsulCommit::operations).sum())
                    .isLessThanOrEqualTo(ConsulMetadataStore.MAX_TRANSACTION_OPERATIONS);
        }
    }

    @Test
    void aSecondCommitOfAKeyAlreadyInTheBatchWaitsForTheNextBatch() throws Exception {
        FakeCommitter committer = new FakeCommitter();
        ConsulCommitQueue queue = new ConsulCommitQueue(committer, "test");
        CompletableFuture<Void> first = submit(queue, "k0", Duration.ofSeconds(30));
        assertThat(committer.holding.await(10, TimeUnit.SECONDS)).isTrue();
        List<CompletableFuture<Void>> queued = new ArrayList<>();
        String[] keys = {"a", "b", "a", "c"};
        for (int i = 0; i < keys.length; i++) {
            queued.add(submit(queue, keys[i], Duration.ofSeconds(30)));
            awaitQueued(queue, i + 1);
        }

        committer.release.countDown();

        first.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<Void> f : queued) {
            f.get(10, TimeUnit.SECONDS);
        }
        assertThat(committer.batches).hasSize(3);
        assertThat(committer.batches.get(1)).extracting(c -> c.updates().get(0).key().key())
                .containsExactly("a", "b");
        assertThat(committer.batches.get(2)).extracting(c -> c.updates().get(0).key().key())
                .containsExactly("a", "c");
    }

    @Test
    void aCommitThatWouldTakeTheBatchPastConsulsLimitsWaitsForTheNextBatch() throws Exception {
        FakeCommitter committer = new FakeCommitter();
        ConsulCommitQueue queue = new ConsulCommitQueue(committer, "test");
        CompletableFuture<Void> first = submit(queue, "k0", Duration.ofSeconds(30));
        assertThat(committer.holding.await(10, TimeUnit.SECONDS)).isTrue();
        List<String> tput = new ArrayList<>();
        for (int i = 0; i < 62; i++) {
            tput.add("t" + i);
        }
        byte[] big = new byte[100 * 1024];
        List<CompletableFuture<Void>> queued = new ArrayList<>();
        queued.add(submit(queue, "s", Duration.ofSeconds(30)));
        awaitQueued(queue, 1);
        queued.add(run(queue, commit(tput, Duration.ofSeconds(30))));           // 1 + 2 + 63 > 64 operations
        awaitQueued(queue, 2);
        queued.add(run(queue, commit("big1", big, Duration.ofSeconds(30))));
        awaitQueued(queue, 3);
        queued.add(run(queue, commit("big2", big, Duration.ofSeconds(30))));    // two of them > 384 KiB
        awaitQueued(queue, 4);
        queued.add(submit(queue, "s2", Duration.ofSeconds(30)));
        awaitQueued(queue, 5);

        committer.release.countDown();

        first.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<Void> f : queued) {
            f.get(10, TimeUnit.SECONDS);
        }
        // [k0] [s] (the TPUT's 63 operations do not fit beside it) [TPUT] (big1's 2 neither) [big1] (big2's bytes
        // neither) [big2, s2]
        assertThat(committer.batches).extracting(List::size).containsExactly(1, 1, 1, 1, 2);
        assertThat(committer.batches.get(4)).extracting(c -> c.updates().get(0).key().key())
                .containsExactly("big2", "s2");
    }

    @Test
    void aCallerStillQueuedAtItsGiveUpTimeLeavesTheQueueWithNothingSent() throws Exception {
        FakeCommitter committer = new FakeCommitter();
        ConsulCommitQueue queue = new ConsulCommitQueue(committer, "test");
        CompletableFuture<Void> first = submit(queue, "k0", Duration.ofSeconds(30));
        assertThat(committer.holding.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> late = submit(queue, "late", Duration.ofMillis(200));

        assertThatThrownBy(() -> late.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("nothing was written");
        assertThat(queue.queued(C)).isZero();
        committer.release.countDown();
        first.get(10, TimeUnit.SECONDS);
        assertThat(committer.batches).hasSize(1);
        queue.commit(C, commit("after", Duration.ofSeconds(10)));
        assertThat(committer.batches).hasSize(2);
    }

    @Test
    void anInterruptedQueuedCallerLeavesTheQueueKeepingItsInterrupt() throws Exception {
        FakeCommitter committer = new FakeCommitter();
        ConsulCommitQueue queue = new ConsulCommitQueue(committer, "test");
        CompletableFuture<Void> first = submit(queue, "k0", Duration.ofSeconds(30));
        assertThat(committer.holding.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicReference<Thread> waiter = new AtomicReference<>();
        CompletableFuture<Boolean> interruptKept = new CompletableFuture<>();
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        callers.submit(() -> {
            waiter.set(Thread.currentThread());
            try {
                queue.commit(C, commit("w", Duration.ofSeconds(30)));
                failure.complete(null);
            } catch (Throwable t) {
                failure.complete(t);
            }
            interruptKept.complete(Thread.currentThread().isInterrupted());
        });
        awaitQueued(queue, 1);

        waiter.get().interrupt();

        assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("interrupted").hasMessageContaining("nothing was written");
        assertThat(interruptKept.get(10, TimeUnit.SECONDS)).isTrue();
        committer.release.countDown();
        first.get(10, TimeUnit.SECONDS);
        assertThat(committer.batches).hasSize(1);
    }

    /**
     * A leader interrupted while it commits a batch of other callers' commits: the HTTP client would end that
     * request (as Consul's does when its thread is interrupted), leaving the others' outcome unknown although nobody
     * interrupted them. The batch is sent from the queue's own thread, so they commit, and the leader keeps its
     * interrupt. (Seen in CI: a caller of the fault campaign got "interrupted; a write's outcome is unknown".)
     */
    @Test
    void anInterruptOfTheLeaderDoesNotCutShortABatchCarryingOtherCallersCommits() throws Exception {
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch secondHeld = new CountDownLatch(1);
        CountDownLatch releaseSecond = new CountDownLatch(1);
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        ConsulCommitQueue queue = new ConsulCommitQueue((c, batch, giveUp) -> {
            sizes.add(batch.size());
            CountDownLatch held = sizes.size() == 1 ? firstHeld : secondHeld;
            CountDownLatch release = sizes.size() == 1 ? releaseFirst : releaseSecond;
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (ConsulCommit x : batch) {
                if (Thread.currentThread().isInterrupted()) { // as ConsulTransport: the request was cut short
                    x.fail(new MetadataUnavailableException("interrupted; a write's outcome is unknown"));
                } else {
                    x.succeed();
                }
            }
        }, "test");
        try {
            AtomicReference<Thread> leader = new AtomicReference<>();
            CompletableFuture<Boolean> leaderInterruptKept = new CompletableFuture<>();
            CompletableFuture<Throwable> leaderOutcome = new CompletableFuture<>();
            callers.submit(() -> {
                leader.set(Thread.currentThread());
                try {
                    queue.commit(C, commit("own", Duration.ofSeconds(30)));
                    leaderOutcome.complete(null);
                } catch (Throwable t) {
                    leaderOutcome.complete(t);
                }
                leaderInterruptKept.complete(Thread.currentThread().isInterrupted());
            });
            assertThat(firstHeld.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Void> b = submit(queue, "b", Duration.ofSeconds(30));
            awaitQueued(queue, 1);
            CompletableFuture<Void> c = submit(queue, "c", Duration.ofSeconds(30));
            awaitQueued(queue, 2);
            releaseFirst.countDown(); // the leader's own batch commits; it then takes [b, c] as an extra batch
            assertThat(secondHeld.await(10, TimeUnit.SECONDS)).isTrue();

            leader.get().interrupt();
            releaseSecond.countDown();

            b.get(10, TimeUnit.SECONDS);
            c.get(10, TimeUnit.SECONDS);
            assertThat(leaderOutcome.get(10, TimeUnit.SECONDS)).isNull();
            assertThat(leaderInterruptKept.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(sizes).containsExactly(1, 2);
        } finally {
            queue.close();
        }
    }

    @Test
    void aQueuedCallerInterruptedAfterItsGiveUpTimeKeepsItsInterruptFlag() throws Exception {
        FakeCommitter committer = new FakeCommitter();
        ConsulCommitQueue queue = new ConsulCommitQueue(committer, "test");
        CompletableFuture<Void> first = submit(queue, "first", Duration.ofSeconds(10));
        assertThat(committer.holding.await(10, TimeUnit.SECONDS)).isTrue();

        // queued behind the held batch, interrupted, and its give-up time already passed: both at its first check
        CompletableFuture<Object[]> late = CompletableFuture.supplyAsync(() -> {
            ConsulCommit commit = commit("late", Duration.ZERO);
            Thread.currentThread().interrupt();
            Throwable thrown = null;
            try {
                queue.commit(C, commit);
            } catch (Throwable t) {
                thrown = t;
            }
            return new Object[] {thrown, Thread.interrupted()};
        }, callers);
        Object[] outcome = late.get(10, TimeUnit.SECONDS);
        committer.release.countDown();
        first.get(10, TimeUnit.SECONDS);

        assertThat((Throwable) outcome[0]).isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("nothing was written");
        assertThat((Boolean) outcome[1]).as("the caller's interrupt flag is kept").isTrue();
        queue.close();
    }
}
