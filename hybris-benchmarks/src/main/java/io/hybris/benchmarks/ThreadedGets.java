/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** GETs by a number of threads sharing one client, each GET's latency recorded and its bytes checked. */
final class ThreadedGets {
    private ThreadedGets() {
    }

    /** {@code total} GETs of keys {@code k0..k<n-1>} in container {@code box}; their latencies in nanoseconds. */
    static List<Long> run(Hybris hybris, byte[][] values, int total, int threads) throws Exception {
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Long>>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                parts.add(pool.submit(() -> {
                    List<Long> mine = new ArrayList<>();
                    for (int i; (i = next.getAndIncrement()) < total; ) {
                        int k = i % values.length;
                        long t0 = System.nanoTime();
                        byte[] got = hybris.get("box", "k" + k).orElseThrow();
                        mine.add(System.nanoTime() - t0);
                        if (!Arrays.equals(got, values[k])) {
                            throw new IllegalStateException("GET of k" + k + " returned other bytes");
                        }
                    }
                    return mine;
                }));
            }
            List<Long> all = new ArrayList<>(total);
            for (Future<List<Long>> f : parts) {
                all.addAll(f.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
