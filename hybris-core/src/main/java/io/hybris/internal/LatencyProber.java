/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.internal.LatencyRanking.Op;
import io.hybris.internal.LatencyRanking.StaleSlot;
import io.hybris.spi.CloudStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Refreshes the latency ranking for clouds that live traffic no longer measures (paper §4.4: "the client can be
 * instructed to refresh these latency ranks"). A cloud that failed or was slow sinks in the ranking and then
 * gets no traffic, so without a probe it would never be seen to recover. For each stale cloud and size class
 * the prober writes one probe object of a size in that class, reads it back, each twice (keeping the faster
 * time: a cold connection is not the cloud's latency), and deletes it. Probe objects live under
 * {@code <prefix>.probe/<client id>/} (container names cannot start with a dot, so probes never collide with
 * values, and the orphan sweep deletes one only once older than the grace period: a delete that failed); the
 * measured latencies feed the ranking. A probe that
 * fails or exceeds the cloud's timer counts as a failure. Clouds are probed in parallel, each cloud's size classes
 * one after another, every cloud call bounded by its timer; the caller waits for all.
 */
final class LatencyProber {
    /** Where under the prefix probe objects go, a folder per client: {@code .probe/<client id>/<n>}. */
    static final String DIRECTORY = ".probe/";

    private static final Logger LOG = LoggerFactory.getLogger(LatencyProber.class);

    private static final int SAMPLES = 2;

    private final Map<String, CloudStore> clouds;
    private final List<String> cloudOrder;
    private final LatencyRanking ranking;
    private final ExecutorService io;
    private final String probePrefix;
    /** This prober's part of its probe objects' names, and their count. */
    private final String instance = Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
    private final java.util.concurrent.atomic.AtomicLong probes = new java.util.concurrent.atomic.AtomicLong();

    LatencyProber(Map<String, CloudStore> clouds, List<String> cloudOrder, LatencyRanking ranking, ExecutorService io,
                  String prefix, String clientId) {
        this.clouds = clouds;
        this.cloudOrder = List.copyOf(cloudOrder);
        this.ranking = ranking;
        this.io = io;
        this.probePrefix = prefix + DIRECTORY + clientId + "/";
    }

    /** Measures every cloud whose estimates are older than {@code maxAgeNanos}; returns the slots probed. */
    List<StaleSlot> probeStale(long maxAgeNanos) {
        return probe(ranking.staleSlots(cloudOrder, maxAgeNanos));
    }

    /** Measures every cloud due for a recheck ({@link LatencyRanking#recheckSlots}); returns the slots probed. */
    List<StaleSlot> probeRechecks(long maxAgeNanos) {
        return probe(ranking.recheckSlots(cloudOrder, maxAgeNanos));
    }

    /** Measures every cloud in every size class in use. */
    List<StaleSlot> probeAll() {
        return probe(ranking.allSlots(cloudOrder));
    }

    /** Probes the slots, the clouds in parallel (each cloud's slots one after another); waits for all. */
    private List<StaleSlot> probe(List<StaleSlot> slots) {
        Map<String, List<StaleSlot>> byCloud = new LinkedHashMap<>();
        for (StaleSlot slot : slots) {
            if (clouds.containsKey(slot.cloudId())) {
                byCloud.computeIfAbsent(slot.cloudId(), id -> new ArrayList<>()).add(slot);
            }
        }
        List<Future<?>> running = new ArrayList<>();
        for (Map.Entry<String, List<StaleSlot>> e : byCloud.entrySet()) {
            CloudStore cloud = clouds.get(e.getKey());
            running.add(io.submit(() -> {
                for (StaleSlot slot : e.getValue()) {
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                    probeOne(cloud, slot.sizeClass());
                }
            }));
        }
        for (Future<?> f : running) {
            try {
                f.get();
            } catch (InterruptedException e) {
                running.forEach(r -> r.cancel(true));
                Thread.currentThread().interrupt();
                break;
            } catch (ExecutionException e) {
                LOG.debug("latency probe failed: {}", e.getCause().toString());
            }
        }
        List<StaleSlot> probed = new ArrayList<>();
        byCloud.values().forEach(probed::addAll);
        return List.copyOf(probed);
    }

    private void probeOne(CloudStore cloud, int sizeClass) {
        int size = LatencyRanking.probeSize(sizeClass);
        byte[] value = new byte[size];
        ThreadLocalRandom.current().nextBytes(value);
        // a name of its own: probes running at once (a refresh during the periodic probe, two clients opened from
        // one configuration, so sharing its client id) would delete each other's objects and fail healthy clouds
        String key = probePrefix + sizeClass + "." + instance + "." + probes.incrementAndGet();
        boolean written = timed(cloud, Op.WRITE, size, () -> {
            cloud.put(key, value);
            return true;
        });
        if (written) {
            timed(cloud, Op.READ, size, () -> {
                Optional<byte[]> back = cloud.get(key, size);
                if (back.isEmpty() || back.get().length != size) {
                    throw new IllegalStateException("probe object " + key + " read back wrong");
                }
                return true;
            });
        }
        try {
            cloud.delete(key); // before the probe counts as done: a client closed right after leaves nothing behind
        } catch (RuntimeException e) {
            LOG.debug("probe object {} on {} not deleted: {}", key, cloud.id(), e.toString());
        }
    }

    /**
     * Runs {@code call} twice and records the faster run: the first request on a connection (or of a cold
     * client) pays set-up costs that live traffic mostly does not.
     */
    private boolean timed(CloudStore cloud, Op op, int size, Supplier<Boolean> call) {
        long timeout = ranking.timerNanos(cloud.id(), op, size);
        Future<Boolean> f = null;
        try {
            long best = Long.MAX_VALUE;
            for (int run = 0; run < SAMPLES; run++) {
                long t0 = System.nanoTime();
                f = io.submit(call::get);
                f.get(timeout, TimeUnit.NANOSECONDS);
                best = Math.min(best, System.nanoTime() - t0);
            }
            ranking.recordProbe(cloud.id(), op, size, best);
            return true;
        } catch (InterruptedException e) {
            cancel(f);
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            cancel(f);
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            if (e instanceof TimeoutException) {
                cause = new TimeoutException("probe of " + size + " bytes took longer than the cloud's timer ("
                        + TimeUnit.NANOSECONDS.toMillis(timeout) + " ms)");
            }
            ranking.recordError(cloud.id(), op, size, cause);
            LOG.debug("latency probe {} on cloud {} failed: {}", op, cloud.id(), e.toString());
            return false;
        }
    }

    private static void cancel(Future<?> f) {
        if (f != null) {
            f.cancel(true);
        }
    }
}
