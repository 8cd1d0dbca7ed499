/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.support.AbortSignal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Race} across {@link Race#cancelAll()}: the worst-case read keeps one race over its rounds and cancels the
 * requests of a superseded version on it, so a completion of a request launched before the cancel must never be
 * taken for an answer to a request launched after it, even from the same cloud.
 */
class RaceTest {
    private final ExecutorService io = Executors.newCachedThreadPool();
    private final Set<AbortSignal> live = ConcurrentHashMap.newKeySet();

    @AfterEach
    void stop() {
        io.shutdownNow();
    }

    @Test
    void aCompletionOfARequestCancelledBeforeIsNotDelivered() throws Exception {
        Race<String> race = new Race<>(io, live);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch oldDone = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        race.launch("c0", () -> {
            started.countDown();
            try {
                awaitIgnoringInterrupts(release); // a driver that finishes its answer despite the interrupt
                return "old version";
            } finally {
                oldDone.countDown();
            }
        }, false);
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        race.cancelAll();
        assertThat(race.isRunning("c0")).isFalse();

        race.launch("c0", () -> "new version", true); // the same cloud, asked again
        release.countDown();
        assertThat(oldDone.await(10, TimeUnit.SECONDS)).isTrue();

        Race.Done<?> done = (Race.Done<?>) race.poll(TimeUnit.SECONDS.toNanos(10));
        assertThat(done.value()).isEqualTo("new version");
        assertThat(race.poll(TimeUnit.MILLISECONDS.toNanos(200))).isNull(); // the old one's was dropped
    }

    @Test
    void aRequestStillRunningIsReportedSoTheNextRoundDoesNotAskAgain() throws Exception {
        Race<String> race = new Race<>(io, live);
        CountDownLatch release = new CountDownLatch(1);
        race.launch("c1", () -> {
            awaitIgnoringInterrupts(release);
            return "slow answer";
        }, false);
        assertThat(race.poll(TimeUnit.MILLISECONDS.toNanos(100))).isNull(); // a round ends without it
        assertThat(race.isRunning("c1")).isTrue();
        release.countDown();
        Race.Done<?> done = (Race.Done<?>) race.poll(TimeUnit.SECONDS.toNanos(10));
        assertThat(done.value()).isEqualTo("slow answer");
        assertThat(race.isRunning("c1")).isFalse();
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A cancelled request that ends after the same cloud was asked again does not take the new request's place: the
     * race still knows the new one runs (a worst-case round does not ask that cloud a third time, and a cancel
     * still aborts it).
     */
    @Test
    void aCancelledRequestEndingLateLeavesTheSameCloudsNewRequestRunning() throws Exception {
        CountDownLatch oldDone = new CountDownLatch(1);
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(2, 2, 1,
                TimeUnit.MINUTES, new java.util.concurrent.LinkedBlockingQueue<>()) {
            @Override
            protected void afterExecute(Runnable r, Throwable t) {
                oldDone.countDown(); // only the old request ends in this test
            }
        };
        try {
            Race<String> race = new Race<>(pool, live);
            CountDownLatch releaseOld = new CountDownLatch(1);
            CountDownLatch releaseNew = new CountDownLatch(1);
            CountDownLatch oldStarted = new CountDownLatch(1);
            race.launch("c0", () -> {
                oldStarted.countDown();
                while (true) { // ignores the cancel's interrupt, as a blocking driver call may
                    try {
                        releaseOld.await();
                        return "old";
                    } catch (InterruptedException ignored) {
                        // keep waiting
                    }
                }
            }, false);
            assertThat(oldStarted.await(10, TimeUnit.SECONDS)).isTrue();
            race.cancelAll();
            race.launch("c0", () -> {
                releaseNew.await();
                return "new";
            }, false);
            releaseOld.countDown();
            assertThat(oldDone.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(race.isRunning("c0")).as("the new request still runs").isTrue();
            assertThat(race.runningClouds()).containsExactly("c0");
            releaseNew.countDown();
            Object done = race.poll(TimeUnit.SECONDS.toNanos(10));
            assertThat(done).isInstanceOfSatisfying(Race.Done.class, d -> assertThat(d.value()).isEqualTo("new"));
        } finally {
            pool.shutdownNow();
        }
    }
}
