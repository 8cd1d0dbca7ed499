/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scrub's pacing (docs/scrub.md). A request whose share of time is beyond what a {@code long} of nanoseconds
 * holds (a tiny rate) made the next due time overflow into the past, and every later request went unpaced.
 */
class RateLimiterTest {
    /** Whether {@code r.acquire(bytes)} on another thread waits (it is interrupted once seen waiting). */
    private static boolean waits(RateLimiter r, long bytes) throws InterruptedException {
        AtomicBoolean interrupted = new AtomicBoolean();
        Thread t = new Thread(() -> {
            try {
                r.acquire(bytes);
            } catch (CallInterruptedException e) {
                interrupted.set(true);
            }
        });
        t.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> t.getState() == Thread.State.TIMED_WAITING
                || t.getState() == Thread.State.TERMINATED);
        t.interrupt();
        t.join();
        return interrupted.get();
    }

    @Test
    void aRequestWhoseShareOverflowsTheClockStillPacesTheNextOne() throws InterruptedException {
        RateLimiter tiny = new RateLimiter(1e-300, 0);
        tiny.acquire(0); // the first request goes at once
        assertThat(waits(tiny, 0)).as("the second request waits its turn").isTrue();

        RateLimiter bytes = new RateLimiter(0, 1);
        bytes.acquire(Long.MAX_VALUE / 2); // billions of years of bytes at 1 byte/s
        assertThat(waits(bytes, 1)).as("the next byte waits its turn").isTrue();
    }

    @Test
    void noLimitNeverWaits() throws InterruptedException {
        RateLimiter none = new RateLimiter(0, 0);
        none.acquire(Long.MAX_VALUE);
        assertThat(waits(none, Long.MAX_VALUE)).isFalse();
    }
}
