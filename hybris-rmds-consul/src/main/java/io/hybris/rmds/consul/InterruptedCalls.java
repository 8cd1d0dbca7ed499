/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import okhttp3.Call;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ends the HTTP requests of threads interrupted while they wait for them. A thread blocked reading a socket does not
 * notice an interrupt (OkHttp checks the flag only between reads and writes), so a call made on its caller's thread
 * against an agent that stopped answering without closing the connection would wait for its read-timeout, interrupt
 * or not. While requests are tracked, a check every {@value #CHECK_MILLIS} ms cancels those whose thread is
 * interrupted; the check stops when no request is tracked. Thread-safe.
 */
final class InterruptedCalls {
    /** How often tracked requests are checked, in milliseconds. */
    static final long CHECK_MILLIS = 10;

    private final Map<Call, Thread> tracked = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final AtomicBoolean checking = new AtomicBoolean();

    /**
     * Checks on {@code timer}.
     *
     * @param timer runs the checks (the store's timer: shut down on close, after which nothing is checked)
     */
    InterruptedCalls(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Tracks {@code call}, made on the current thread, until {@link #untrack}. */
    void track(Call call) {
        tracked.put(call, Thread.currentThread());
        if (checking.compareAndSet(false, true)) {
            schedule();
        }
    }

    /** Stops tracking {@code call}. */
    void untrack(Call call) {
        tracked.remove(call);
    }

    private void schedule() {
        try {
            timer.schedule(this::check, CHECK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            checking.set(false); // the store is closing: its close cancels every request
        }
    }

    private void check() {
        tracked.forEach((call, thread) -> {
            if (thread.isInterrupted()) {
                call.cancel();
            }
        });
        if (!tracked.isEmpty()) {
            schedule();
            return;
        }
        checking.set(false);
        if (!tracked.isEmpty() && checking.compareAndSet(false, true)) {
            schedule(); // tracked meanwhile by a thread that saw the check still running
        }
    }
}
