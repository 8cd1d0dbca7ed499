/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import com.sun.management.GarbageCollectionNotificationInfo;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Measures this JVM's live heap the way that counts for a memory bound: the heap in use right after each garbage
 * collection (the sum over the heap pools of {@code memoryUsageAfterGc}, from the collectors' notifications), so
 * garbage not yet collected is not counted as use. It keeps the largest such figure since {@link #reset()}, and,
 * for information, the pools' own peak usage (which includes garbage).
 *
 * <p>After a G1 young collection the figure still counts objects that died during a concurrent mark (floating
 * garbage: 8 MiB chunk arrays here, more of them the longer a mark takes on a loaded host), so it is an upper bound
 * of the live heap. {@link #sampleFullCollections} adds the exact figure: every interval a full collection
 * ({@code System.gc()}, which G1 runs as a stop-the-world full collection), whose heap after it is the live heap at
 * that instant; {@link #peakAfterFullGc()} is their largest since {@link #reset()}. Thread-safe.
 */
final class HeapWatch implements NotificationListener, AutoCloseable {
    /** The cause a collection requested by {@code System.gc()} is notified with. */
    private static final String EXPLICIT_CAUSE = "System.gc()";
    private final Set<String> heapPools;
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private long peakAfterGc;
    private long peakAfterFullGc;
    private long fullGcs;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "heap-watch-full-gc");
        t.setDaemon(true);
        return t;
    });
    private long lastAfterGc = -1;
    private long gcs;
    /** Per collector, the highest collection number ({@code GcInfo.getId()}) notified so far. */
    private final Map<String, Long> notified = new java.util.HashMap<>();

    HeapWatch() {
        heapPools = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName).collect(Collectors.toUnmodifiableSet());
        for (GarbageCollectorMXBean gc : collectors) {
            ((NotificationEmitter) gc).addNotificationListener(this, null, null);
            synchronized (this) {
                notified.merge(gc.getName(), gc.getCollectionCount(), Math::max); // earlier ones are not ours
            }
        }
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long after = 0;
        for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                after += e.getValue().getUsed();
            }
        }
        synchronized (this) {
            notified.merge(info.getGcName(), info.getGcInfo().getId(), Math::max);
            gcs++;
            lastAfterGc = after;
            peakAfterGc = Math.max(peakAfterGc, after);
            if (EXPLICIT_CAUSE.equals(info.getGcCause())) {
                fullGcs++;
                peakAfterFullGc = Math.max(peakAfterFullGc, after);
            }
            notifyAll();
        }
    }

    /** Runs a full collection every {@code interval} until {@link #close()} (see the class comment). */
    void sampleFullCollections(Duration interval) {
        sampler.scheduleWithFixedDelay(System::gc, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Runs a full collection and returns the heap in use after it (the baseline of a measurement), waiting for its
     * notification.
     */
    long collectAndMeasure() throws InterruptedException {
        System.gc();
        awaitAllNotified(Duration.ofSeconds(30));
        synchronized (this) {
            return lastAfterGc;
        }
    }

    /** Waits until every collection the collectors counted so far has been notified (they arrive on another thread). */
    void awaitAllNotified(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            for (GarbageCollectorMXBean gc : collectors) {
                long count = gc.getCollectionCount();
                while (notified.getOrDefault(gc.getName(), 0L) < count) {
                    long left = end - System.nanoTime();
                    if (left <= 0) {
                        throw new IllegalStateException("GC notifications of " + gc.getName() + " missing: up to #"
                                + notified.getOrDefault(gc.getName(), 0L) + " of " + count + " after " + timeout);
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
            }
        }
    }

    /** Starts a new measurement: forgets the peak after GC and resets the pools' peak usage. */
    synchronized void reset() {
        peakAfterGc = 0;
        gcs = 0;
        peakAfterFullGc = 0;
        fullGcs = 0;
        ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    /** The largest heap in use after a collection since {@link #reset()}. */
    synchronized long peakAfterGc() {
        return peakAfterGc;
    }

    /** The largest heap in use after a full collection ({@code System.gc()}) since {@link #reset()}: the live heap. */
    synchronized long peakAfterFullGc() {
        return peakAfterFullGc;
    }

    /** Full collections ({@code System.gc()}) since {@link #reset()}. */
    synchronized long fullCollections() {
        return fullGcs;
    }

    /** Collections since {@link #reset()}. */
    synchronized long collections() {
        return gcs;
    }

    /** The sum of the heap pools' peak usage since {@link #reset()} (garbage included; for information). */
    long poolPeaks() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    }

    @Override
    public void close() {
        sampler.shutdownNow();
        for (GarbageCollectorMXBean gc : collectors) {
            try {
                ((NotificationEmitter) gc).removeNotificationListener(this);
            } catch (ListenerNotFoundException e) {
                // never added
            }
        }
    }
}
