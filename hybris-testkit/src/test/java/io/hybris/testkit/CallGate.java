/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A gate a test's decorator holds calls at: {@link #hold()} arms it, {@link #release()} lets the held calls and
 * later ones through, {@link #held()} counts the callers waiting. Thread-safe.
 */
final class CallGate {
    private volatile CountDownLatch gate;
    private final AtomicInteger held = new AtomicInteger();

    /** Holds the calls that pass from now on until {@link #release()}. */
    void hold() {
        gate = new CountDownLatch(1);
    }

    /** Lets every held call through; later calls pass until {@link #hold()} again. */
    void release() {
        CountDownLatch g = gate;
        gate = null;
        if (g != null) {
            g.countDown();
        }
    }

    /** How many calls wait at the gate now. */
    int held() {
        return held.get();
    }

    /**
     * Waits, if the gate is armed, until it is released or {@code max} passed.
     *
     * @return false if {@code max} passed first
     */
    boolean pass(Duration max) throws InterruptedException {
        CountDownLatch g = gate;
        if (g == null) {
            return true;
        }
        held.incrementAndGet();
        try {
            return g.await(max.toNanos(), TimeUnit.NANOSECONDS);
        } finally {
            held.decrementAndGet();
        }
    }
}
