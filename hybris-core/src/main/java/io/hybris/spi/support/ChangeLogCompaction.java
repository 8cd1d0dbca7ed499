/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * When a store compacts its change logs: it counts the commits it makes per container and, after every
 * {@link #interval(int) interval}-th, runs the store's compaction of that container on one background thread
 * (at most one pending run per container). Every client compacts after its own commits, so a log is compacted
 * about once per interval commits however many clients write. Thread-safe; {@link #close()} stops the thread.
 */
public final class ChangeLogCompaction implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeLogCompaction.class);

    private final String description;
    private final int interval;
    private final Consumer<String> compact;
    private final Map<String, AtomicLong> commits = new ConcurrentHashMap<>();
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final ExecutorService thread;

    /**
     * @param description the store's description, for log lines and the thread's name
     * @param retention   how many commits a log keeps (the store's option)
     * @param compact     the store's compaction of one container's log; its failures are logged
     */
    public ChangeLogCompaction(String description, int retention, Consumer<String> compact) {
        this.description = description;
        this.interval = interval(retention);
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

    /** Commits between two compactions of a log that keeps {@code retention} commits: a tenth, 1 to 1,000. */
    public static int interval(int retention) {
        return Math.max(1, Math.min(1000, retention / 10));
    }

    /** Counts one commit to {@code container}; compacts its log in the background after every interval-th. */
    public void committed(String container) {
        long n = commits.computeIfAbsent(container, c -> new AtomicLong()).incrementAndGet();
        if (n % interval == 0 && pending.add(container)) {
            try {
                thread.execute(() -> {
                    pending.remove(container);
                    try {
                        compact.accept(container);
                    } catch (RuntimeException e) {
                        LOG.warn("{}: compaction of the change log of container {} failed; the next one retries",
                                description, container, e);
                    }
                });
            } catch (RejectedExecutionException closed) {
                pending.remove(container);
            }
        }
    }

    /** Stops the background thread; a compaction in progress is interrupted. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
