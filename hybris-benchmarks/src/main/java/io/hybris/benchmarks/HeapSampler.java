/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static io.hybris.benchmarks.LargeValuesBenchmark.*;

/**
 * The live heap while an operation runs: a full GC every {@link #PERIOD_MS} ms, and the heap in use after each
 * GC as the GC notifications report it.
 */
final class HeapSampler implements NotificationListener, AutoCloseable {
    static final int PERIOD_MS = 100;

    record Result(long baseline, long highWater, long anyGcHighWater, int samples, long after) {
    }

    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());
    private final List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
    private final AtomicLong fullGcs = new AtomicLong();
    private volatile long lastFull;
    private volatile long maxFull;
    private volatile long maxAny;

    HeapSampler() {
        for (GarbageCollectorMXBean gc : gcs) {
            ((NotificationEmitter) gc).addNotificationListener(this, null, null);
        }
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        if (!n.getType().equals(com.sun.management.GarbageCollectionNotificationInfo
                .GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        com.sun.management.GarbageCollectionNotificationInfo info = com.sun.management
                .GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long used = 0;
        for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                used += e.getValue().getUsed();
            }
        }
        synchronized (this) {
            maxAny = Math.max(maxAny, used);
            if ("System.gc()".equals(info.getGcCause())) {
                lastFull = used;
                maxFull = Math.max(maxFull, used);
                fullGcs.incrementAndGet();
                notifyAll();
            }
        }
    }

    /** A full GC, waiting for its notification; returns the live heap after it. */
    private long fullGc() throws InterruptedException {
        long before = fullGcs.get();
        System.gc();
        synchronized (this) {
            long until = System.nanoTime() + 5_000_000_000L;
            while (fullGcs.get() == before && System.nanoTime() < until) {
                wait(100);
            }
            return lastFull;
        }
    }

    Result measure(Call op) throws Exception {
        long baseline = atRest();
        synchronized (this) {
            maxFull = baseline;
            maxAny = baseline;
        }
        long count0 = fullGcs.get();
        Thread forcer = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(PERIOD_MS);
                    System.gc();
                }
            } catch (InterruptedException e) {
                // done
            }
        }, "bench-gc-forcer");
        forcer.setDaemon(true);
        forcer.start();
        try {
            op.run();
        } finally {
            forcer.interrupt();
            forcer.join();
        }
        Thread.sleep(200); // let the last notifications arrive
        long highWater;
        long any;
        int samples;
        synchronized (this) {
            highWater = maxFull;
            any = maxAny;
            samples = (int) (fullGcs.get() - count0);
        }
        return new Result(baseline, highWater, any, samples, atRest());
    }

    /**
     * The live heap at rest: the least of three full GCs, after the previous operation's background work (the
     * old version's deletion) has had half a second to settle.
     */
    private long atRest() throws InterruptedException {
        Thread.sleep(500);
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            least = Math.min(least, fullGc());
            Thread.sleep(100);
        }
        return least;
    }

    @Override
    public void close() throws Exception {
        for (GarbageCollectorMXBean gc : gcs) {
            ((NotificationEmitter) gc).removeNotificationListener(this);
        }
    }
}
