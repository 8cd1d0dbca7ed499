/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.support.AbortSignal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs requests to several clouds in parallel and delivers their completions, plus external signals (a
 * metadata watch firing), through one queue, so a protocol step can wait for "the next thing that happened"
 * with a timeout. Used by one thread at a time; tasks complete from I/O threads.
 *
 * @param <T> the result type of a request
 */
final class Race<T> {
    /**
     * A completed request; {@code generation} is the race's {@link #cancelAll} count when it was launched (a
     * completion from before the last {@code cancelAll} is not delivered).
     */
    record Done<T>(String cloudId, T value, Throwable error, long nanos, int generation) {
        boolean ok() {
            return error == null;
        }
    }

    /** An external event, such as a metadata change notification. */
    record Signal(String what) {
    }

    /** A request running on an I/O thread, and the signal that aborts its cloud calls there. */
    private record Running(Future<?> future, AbortSignal signal) {
        void cancel() {
            if (signal != null) {
                signal.abort(); // first: a call failing because of it then knows it was aborted
            }
            future.cancel(true);
        }
    }

    private final ExecutorService executor;
    private final Set<AbortSignal> live;
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    /** How many times {@link #cancelAll} ran: completions of requests launched before it are dropped. */
    private volatile int generation;

    /**
     * @param live the client's requests running on I/O threads, to abort when it closes: each request launched on
     *             {@code executor} is in it while it runs
     */
    Race(ExecutorService executor, Set<AbortSignal> live) {
        this.executor = executor;
        this.live = live;
    }

    /**
     * Runs {@code task} on an I/O thread with an {@link AbortSignal} bound (so a driver can make its blocking calls
     * there and still be aborted: {@link #cancelAll}), or on the calling thread before returning if
     * {@code onCallerThread} (for a cloud whose calls are bounded below the request's timer: nothing could be
     * launched in between). Either way its completion arrives through {@link #poll}.
     */
    void launch(String cloudId, Callable<T> task, boolean onCallerThread) {
        AbortSignal signal = onCallerThread ? null : new AbortSignal();
        AtomicReference<Running> self = new AtomicReference<>();
        int launchedIn = generation;
        FutureTask<Void> future = new FutureTask<>(() -> {
            long t0 = System.nanoTime();
            Object event;
            try (AbortSignal.Binding bound = signal == null ? null : signal.bind()) {
                event = new Done<>(cloudId, task.call(), null, System.nanoTime() - t0, launchedIn);
            } catch (Throwable e) {
                event = new Done<T>(cloudId, null, e, System.nanoTime() - t0, launchedIn);
            } finally {
                if (signal != null) {
                    live.remove(signal);
                }
            }
            running.remove(cloudId, self.get());
            events.add(event);
        }, null);
        self.set(new Running(future, signal));
        running.put(cloudId, self.get());
        if (onCallerThread) {
            future.run();
            return;
        }
        live.add(signal);
        try {
            executor.execute(future);
        } catch (RuntimeException e) {
            live.remove(signal);
            running.remove(cloudId, self.get());
            throw e;
        }
    }

    /**
     * Runs {@code task} on the calling thread, outside any race, and returns its completion as a race would deliver
     * it (a throw becomes a failed {@link Done}); for a read that needs no race yet ({@link PendingRead}).
     */
    static <T> Done<T> callHere(String cloudId, Callable<T> task) {
        long t0 = System.nanoTime();
        try {
            return new Done<>(cloudId, task.call(), null, System.nanoTime() - t0, 0);
        } catch (Throwable e) {
            return new Done<>(cloudId, null, e, System.nanoTime() - t0, 0);
        }
    }

    void signal(Signal s) {
        events.add(s);
    }

    /**
     * The next completion or signal, or null after {@code nanos}. A completion of a request launched before the
     * last {@link #cancelAll} is skipped: its caller gave it up (and may since have asked the same cloud for
     * something else).
     */
    Object poll(long nanos) throws InterruptedException {
        long end = System.nanoTime() + Math.max(0, nanos);
        while (true) {
            Object event = events.poll(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (!(event instanceof Done<?> done) || done.generation() == generation) {
                return event;
            }
        }
    }

    boolean isRunning(String cloudId) {
        return running.containsKey(cloudId);
    }

    List<String> runningClouds() {
        if (running.isEmpty()) {
            return List.of(); // the usual end of a read answered on the caller's thread
        }
        return new ArrayList<>(running.keySet());
    }

    /**
     * Aborts (through their signals) and interrupts every request still running; their completions are no longer of
     * interest, and {@link #poll} drops them. The race can launch requests again afterwards.
     */
    void cancelAll() {
        generation++; // only the owner thread writes it
        for (Running r : running.values()) {
            r.cancel();
        }
        running.clear();
    }
}
