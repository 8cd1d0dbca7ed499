/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    /** A completed request. */
    record Done<T>(String cloudId, T value, Throwable error, long nanos) {
        boolean ok() {
            return error == null;
        }
    }

    /** An external event, such as a metadata change notification. */
    record Signal(String what) {
    }

    private final ExecutorService executor;
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private final Map<String, Future<?>> running = new ConcurrentHashMap<>();

    Race(ExecutorService executor) {
        this.executor = executor;
    }

    /**
     * Runs {@code task} on an I/O thread, or on the calling thread before returning if {@code onCallerThread}
     * (for a cloud whose calls are bounded below the request's timer: nothing could be launched in between).
     * Either way its completion arrives through {@link #poll}.
     */
    void launch(String cloudId, Callable<T> task, boolean onCallerThread) {
        AtomicReference<FutureTask<Void>> self = new AtomicReference<>();
        self.set(new FutureTask<>(() -> {
            long t0 = System.nanoTime();
            Object event;
            try {
                event = new Done<>(cloudId, task.call(), null, System.nanoTime() - t0);
            } catch (Throwable e) {
                event = new Done<T>(cloudId, null, e, System.nanoTime() - t0);
            }
            running.remove(cloudId, self.get());
            events.add(event);
        }, null));
        running.put(cloudId, self.get());
        if (onCallerThread) {
            self.get().run();
        } else {
            executor.execute(self.get());
        }
    }

    void signal(Signal s) {
        events.add(s);
    }

    /** The next completion or signal, or null after {@code nanos}. */
    Object poll(long nanos) throws InterruptedException {
        return events.poll(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    boolean isRunning(String cloudId) {
        return running.containsKey(cloudId);
    }

    List<String> runningClouds() {
        return new ArrayList<>(running.keySet());
    }

    /** Interrupts every request still running; their completions are no longer of interest. */
    void cancelAll() {
        for (Future<?> f : running.values()) {
            f.cancel(true);
        }
        running.clear();
    }
}
