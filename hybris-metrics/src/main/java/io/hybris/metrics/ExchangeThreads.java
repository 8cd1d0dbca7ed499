/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads {@link PrometheusEndpoint}'s exchanges run on: a few daemon threads, each exchange bounded in time. The
 * JDK server reads a request (and the handler writes its answer) blocking, on the thread that runs the exchange;
 * without an executor that is the server's only thread, so one client that never finishes its request or never
 * reads the answer would stop every scrape. An exchange still running after the limit is interrupted, which closes
 * its connection (the server's socket channels are interruptible).
 */
final class ExchangeThreads implements Executor, AutoCloseable {
    private final ThreadPoolExecutor pool;
    private final ScheduledExecutorService alarms;
    private final long limitNanos;

    ExchangeThreads(int threads, Duration limit) {
        this.limitNanos = limit.toNanos();
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> daemon(r, "hybris-metrics-http-" + n.incrementAndGet()));
        pool.allowCoreThreadTimeOut(true);
        this.alarms = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "hybris-metrics-http-limit"));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override
    public void execute(Runnable exchange) {
        pool.execute(() -> runBounded(exchange));
    }

    private void runBounded(Runnable exchange) {
        Alarm alarm = new Alarm(Thread.currentThread());
        ScheduledFuture<?> scheduled;
        try {
            scheduled = alarms.schedule(alarm::ring, limitNanos, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            return; // the endpoint closed as this exchange started: it is not served (its connection is closed)
        }
        try {
            exchange.run();
        } finally {
            alarm.disarm();
            scheduled.cancel(false);
            Thread.interrupted(); // an interrupt meant for this exchange must not reach the next one
        }
    }

    /** Stops the threads, interrupting running exchanges. */
    @Override
    public void close() {
        pool.shutdownNow();
        alarms.shutdownNow();
    }

    /** Interrupts its thread when it rings, unless the exchange ended first. */
    private static final class Alarm {
        private final Thread thread;
        private boolean armed = true;

        Alarm(Thread thread) {
            this.thread = thread;
        }

        synchronized void ring() {
            if (armed) {
                thread.interrupt();
            }
        }

        synchronized void disarm() {
            armed = false;
        }
    }
}
