/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When {@link ChangeLogCompaction} compacts: on a commit whose draw comes up (whatever the client committed before),
 * never twice at once for one container, and what {@link ChangeLogCompaction#close()} does with a compaction that
 * runs. The stores' own compactions run against real servers in their modules' change-log tests.
 */
class ChangeLogCompactionTest {
    private static final Duration AWAIT = Duration.ofSeconds(10);

    @Test
    void aCommitWhoseDrawComesUpCompactsItsContainerEvenAsTheClientsFirst() {
        List<String> compacted = new CopyOnWriteArrayList<>();
        AtomicInteger draws = new AtomicInteger();
        List<Integer> bounds = new CopyOnWriteArrayList<>();
        // draws 0 (compact) on the 1st and 4th commit
        try (ChangeLogCompaction c = new ChangeLogCompaction("test", 20_000, Duration.ofSeconds(5), bound -> {
            bounds.add(bound);
            int n = draws.incrementAndGet();
            return n == 1 || n == 4 ? 0 : 1;
        }, compacted::add)) {
            c.committed("docs");
            await().atMost(AWAIT).until(() -> compacted.size() == 1);
            c.committed("docs");
            c.committed("photos");
            c.committed("photos");
            await().atMost(AWAIT).until(() -> compacted.size() == 2);
            assertThat(compacted).containsExactly("docs", "photos");
        }
        assertThat(bounds).as("one chance in retention / 10 per commit, at most 1,000").containsOnly(1_000);
        assertThat(ChangeLogCompaction.interval(20)).isEqualTo(2);
        assertThat(ChangeLogCompaction.interval(5)).as("every commit").isEqualTo(1);
        assertThat(ChangeLogCompaction.interval(50_000)).as("at most every 1,000th").isEqualTo(1000);
    }

    @Test
    void aContainerHasAtMostOneCompactionWaitingBehindTheOneRunning() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CompletableFuture<Void> release = new CompletableFuture<>();
        AtomicInteger runs = new AtomicInteger();
        try (ChangeLogCompaction c = new ChangeLogCompaction("test", 20, Duration.ofSeconds(5), bound -> 0,
                container -> {
                    runs.incrementAndGet();
                    running.countDown();
                    release.join();
                })) {
            c.committed("docs");
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 50; i++) {
                c.committed("docs"); // the first queues one more run, the rest find it pending
            }
            release.complete(null);
            await().atMost(AWAIT).until(() -> runs.get() == 2);
        }
        assertThat(runs.get()).isEqualTo(2);
    }

    @Test
    void closeLetsARunningCompactionFinishAndStartsNoMore() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CompletableFuture<Void> release = new CompletableFuture<>();
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicInteger finished = new AtomicInteger();
        ChangeLogCompaction c = new ChangeLogCompaction("test", 20, Duration.ofMinutes(1), bound -> 0, container -> {
            running.countDown();
            try {
                release.get();
                finished.incrementAndGet();
            } catch (InterruptedException e) {
                interrupted.set(true);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        c.committed("docs");
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        Thread closer = new Thread(c::close);
        closer.start();
        await().atMost(AWAIT).until(() -> closer.getState() == Thread.State.TIMED_WAITING);
        assertThat(closer.isAlive()).as("close waits for the running compaction").isTrue();
        release.complete(null);
        closer.join(10_000);
        assertThat(closer.isAlive()).isFalse();
        assertThat(finished.get()).isEqualTo(1);
        assertThat(interrupted.get()).isFalse();

        c.committed("docs");
        assertThat(finished.get()).as("no compaction after close").isEqualTo(1);
    }

    @Test
    void closeInterruptsACompactionThatOutlastsTheCloseWait() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        ChangeLogCompaction c = new ChangeLogCompaction("test", 20, Duration.ofMillis(200), bound -> 0,
                container -> {
                    running.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                    }
                });
        c.committed("docs");
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        c.close();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the hung compaction is interrupted").isTrue();
    }
}
