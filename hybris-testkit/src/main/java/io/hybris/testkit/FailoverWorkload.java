/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DeadlineExceededException;
import io.hybris.Hybris;
import io.hybris.VersionInfo;
import io.hybris.MetadataUnavailableException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A write/read workload for metadata-store failover tests: writers each own a key and write increasing numbers,
 * a reader reads the first writer's key; the test injects its fault (kills a leader) while it runs, then
 * {@link #stopAndVerify} asserts that no acknowledged write was lost, that no read returned a value older than a
 * write acknowledged before the read began (a stale read, say from a server that lost its leadership), and that no
 * call outlived its deadline, every failure being a clear {@link MetadataUnavailableException} or
 * {@link DeadlineExceededException} (anything else fails the test).
 *
 * <pre>{@code
 * FailoverWorkload workload = FailoverWorkload.start(hybris, 3);
 * workload.awaitAcknowledged(60, Duration.ofSeconds(60));
 * cluster.killLeader();
 * workload.awaitAcknowledged(workload.acknowledged() + 60, Duration.ofSeconds(90));
 * workload.stopAndVerify(deadline);
 * }</pre>
 */
public final class FailoverWorkload {
    /** The container the workload writes to. */
    public static final String CONTAINER = "ha";

    private final Hybris hybris;
    private final int writers;
    private final AtomicLongArray lastAcked;
    private final AtomicLongArray lastAttempted;
    private final List<String> staleReads = new CopyOnWriteArrayList<>();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final Set<String> acknowledgedVersions = ConcurrentHashMap.newKeySet();
    private final List<Duration> slowest = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> failureTypes = new ConcurrentHashMap<>();
    private final ExecutorService pool;
    private final List<Future<?>> tasks = new ArrayList<>();

    private FailoverWorkload(Hybris hybris, int writers) {
        this.hybris = hybris;
        this.writers = writers;
        this.lastAcked = new AtomicLongArray(writers);
        this.lastAttempted = new AtomicLongArray(writers);
        this.pool = Executors.newFixedThreadPool(writers + 1);
    }

    /** Starts {@code writers} writer threads and one reader on {@code hybris}. */
    public static FailoverWorkload start(Hybris hybris, int writers) {
        FailoverWorkload w = new FailoverWorkload(hybris, writers);
        for (int i = 0; i < writers; i++) {
            int writer = i;
            w.tasks.add(w.pool.submit(() -> w.write(writer)));
        }
        w.tasks.add(w.pool.submit(w::read));
        return w;
    }

    private Void write(int writer) {
        Duration worst = Duration.ZERO;
        for (long n = 1; !stop.get(); n++) {
            lastAttempted.set(writer, n);
            long t0 = System.nanoTime();
            try {
                VersionInfo v = hybris.put(CONTAINER, "key-" + writer,
                        Long.toString(n).getBytes(StandardCharsets.UTF_8));
                acknowledgedVersions.add(v.version());
                lastAcked.set(writer, n);
                acked.incrementAndGet();
            } catch (MetadataUnavailableException | DeadlineExceededException e) {
                failed(e);
            }
            worst = max(worst, Duration.ofNanos(System.nanoTime() - t0));
        }
        slowest.add(worst);
        return null;
    }

    private Void read() {
        Duration worst = Duration.ZERO;
        while (!stop.get()) {
            long t0 = System.nanoTime();
            long ackedBefore = lastAcked.get(0);
            try {
                Optional<byte[]> v = hybris.get(CONTAINER, "key-0");
                long attemptedAfter = lastAttempted.get(0);
                long read = v.map(b -> Long.parseLong(new String(b, StandardCharsets.UTF_8))).orElse(0L);
                if (read < ackedBefore || read > attemptedAfter) {
                    staleReads.add("key-0 read " + (v.isPresent() ? "write " + read : "no value") + ", but write "
                            + ackedBefore + " was acknowledged before the read began and " + attemptedAfter
                            + " attempted when it ended");
                }
            } catch (MetadataUnavailableException | DeadlineExceededException e) {
                failed(e);
            }
            worst = max(worst, Duration.ofNanos(System.nanoTime() - t0));
        }
        slowest.add(worst);
        return null;
    }

    private void failed(RuntimeException e) {
        failures.add(e);
        failureTypes.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicInteger()).incrementAndGet();
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** Writes acknowledged so far. */
    public long acknowledged() {
        return acked.get();
    }

    /** The version ids of the writes acknowledged so far. */
    public Set<String> acknowledgedVersions() {
        return Set.copyOf(acknowledgedVersions);
    }

    /** Waits until at least {@code count} writes were acknowledged. */
    public void awaitAcknowledged(long count, Duration timeout) {
        await().atMost(timeout).until(() -> acked.get() >= count);
    }

    /** Calls that failed (with a clear exception) so far, by exception type. */
    public Map<String, Integer> failureTypes() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        failureTypes.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /**
     * Stops the workload and asserts: every writer's key holds its last acknowledged value or a later attempted
     * one; every read returned the write acknowledged last before it began or a later attempted one; every call
     * finished within {@code deadline} (plus 3 s of scheduling slack); every failure has a
     * message; no worker died of any other exception.
     */
    public void stopAndVerify(Duration deadline) throws Exception {
        stop.set(true);
        try {
            for (Future<?> f : tasks) {
                f.get(deadline.toSeconds() * 2 + 10, TimeUnit.SECONDS); // other exceptions fail the test here
            }
        } finally {
            pool.shutdownNow();
        }
        for (int w = 0; w < writers; w++) {
            Optional<byte[]> v = hybris.get(CONTAINER, "key-" + w);
            assertThat(v).as("key-%d", w).isPresent();
            long stored = Long.parseLong(new String(v.get(), StandardCharsets.UTF_8));
            assertThat(stored).as("key-%d: last acknowledged %d, last attempted %d", w, lastAcked.get(w),
                    lastAttempted.get(w)).isBetween(lastAcked.get(w), lastAttempted.get(w));
        }
        assertThat(staleReads).as("reads older than a write acknowledged before they began").isEmpty();
        assertThat(slowest).hasSize(writers + 1).allSatisfy(d -> assertThat(d).isLessThan(deadline.plusSeconds(3)));
        assertThat(failures).allSatisfy(t -> assertThat(t.getMessage()).isNotBlank());
    }
}
