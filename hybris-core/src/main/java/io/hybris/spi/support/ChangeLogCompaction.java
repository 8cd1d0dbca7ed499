/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;

/**
 * When a store compacts its change logs: after each commit to a container, with probability
 * {@code 1 / }{@link #interval(int) interval}, it runs the store's compaction of that container on one background
 * thread (at most one pending run per container). A log is so compacted about once per interval commits however many
 * clients write and however few commits each makes before it closes (a client counting its own commits would never
 * compact if each ran a handful: a CLI invocation, a short job), and whatever gaps the store's sequence numbers have.
 * {@link #close()} lets a compaction that was started finish, for a bounded time, since a short-lived client's may be
 * the only one its log gets for a while. Thread-safe.
 */
public final class ChangeLogCompaction implements AutoCloseable {
    /** How long {@link #close()} lets started compactions run, by default, before interrupting them. */
    public static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(ChangeLogCompaction.class);

    private final String description;
    private final int interval;
    private final Duration closeWait;
    private final IntUnaryOperator draw;
    private final Consumer<String> compact;
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final ThreadPoolExecutor thread;

    /**
     * A compaction drawn at random, which {@link #close()} lets run for up to {@link #CLOSE_WAIT}.
     *
     * @param description the store's description, for log lines and the thread's name
     * @param retention   how many commits a log keeps (the store's option)
     * @param compact     the store's compaction of one container's log; its failures are logged
     */
    public ChangeLogCompaction(String description, int retention, Consumer<String> compact) {
        this(description, retention, CLOSE_WAIT, bound -> ThreadLocalRandom.current().nextInt(bound), compact);
    }

    /**
     * As {@link #ChangeLogCompaction(String, int, Consumer)}, with how long {@link #close()} waits and the draw that
     * decides whether a commit compacts: it returns a number from 0 (compact) to {@code bound - 1}; tests pass a
     * fixed one.
     */
    public ChangeLogCompaction(String description, int retention, Duration closeWait, IntUnaryOperator draw,
                               Consumer<String> compact) {
        this.description = description;
        this.interval = interval(retention);
        this.closeWait = closeWait;
        this.draw = draw;
        this.compact = compact;
        ThreadPoolExecutor t = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread th = new Thread(r, "hybris-changelog-compaction");
                    th.setDaemon(true);
                    return th;
                });
        t.allowCoreThreadTimeOut(true);
        this.thread = t;
    }

    /** Commits between two compactions of a log that keeps {@code retention} commits, on average: a tenth, 1 to 1,000. */
    public static int interval(int retention) {
        return Math.max(1, Math.min(1000, retention / 10));
    }

    /** Counts one commit to {@code container}: with probability 1 / interval, compacts its log in the background. */
    public void committed(String container) {
        if (draw.applyAsInt(interval) == 0 && pending.add(container)) {
            try {
                thread.execute(() -> {
                    pending.remove(container);
                    try {
                        compact.accept(container);
                    } catch (RuntimeException e) {
                        LOG.warn("{}: compaction of the change log of container {} failed; a later one retries",
                                description, container, e);
                    }
                });
            } catch (RejectedExecutionException closed) {
                pending.remove(container);
            }
        }
    }

    /**
     * Stops the background thread: compactions already started or queued run for up to the close wait, then are
     * interrupted. Commits counted after this start none. Idempotent.
     */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(closeWait.toNanos(), TimeUnit.NANOSECONDS)) {
                LOG.warn("{}: a change-log compaction still ran {} after close; interrupted (a later one retries)",
                        description, closeWait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            thread.shutdownNow();
        }
    }
}
