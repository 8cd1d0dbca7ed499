/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.spi.CloudStore;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.EmulatedClouds.Kind;
import io.hybris.testkit.TestEnvironment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * Each emulated cloud's own throughput through its Hybris driver (the same HTTP client and requests Hybris makes):
 * 4 KiB PUTs and GETs with {@code threads} callers for {@code seconds} each, and {@code largeMiB} MiB moved as 8 MiB
 * objects with 10 callers. The S3 gateway benchmark (bench/s3-gateway.sh) runs it in the same run as boto3, so the
 * gateway's figures can be set against the slower of the {@code f+1} clouds a write waits for.
 *
 * <p>Usage: {@code CloudThroughputRun <endpoints.properties> <seconds> <threads> <largeMiB>}; prints one
 * tab-separated line per cloud: {@code cloud put4k/s get4k/s putMiB/s getMiB/s}.
 */
public final class CloudThroughputRun {
    private static final int SMALL = 4096;
    private static final int LARGE = 8 << 20;
    private static final int KEYS = 256;

    private CloudThroughputRun() {
    }

    public static void main(String[] args) throws Exception {
        TestEnvironment env = TestEnvironment.load(Path.of(args[0]));
        double seconds = Double.parseDouble(args[1]);
        int threads = Integer.parseInt(args[2]);
        int largeObjects = Integer.parseInt(args[3]) / 8;
        EmulatedClouds clouds = new EmulatedClouds(env);
        byte[] small = new byte[SMALL];
        byte[] large = new byte[LARGE];
        new Random(1).nextBytes(small);
        new Random(2).nextBytes(large);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(threads, 10));
        try {
            for (Kind kind : Kind.values()) {
                String id = kind.name().toLowerCase(Locale.ROOT);
                CloudStore store = clouds.store(id, kind, "cloud-throughput/");
                try {
                    for (int i = 0; i < KEYS; i++) {
                        store.put("s" + i, small); // warm-up, and what the GETs read
                    }
                    double put = opsPerSecond(pool, threads, seconds, i -> store.put("s" + (i % KEYS), small));
                    double get = opsPerSecond(pool, threads, seconds, i -> store.get("s" + (i % KEYS), SMALL)
                            .orElseThrow());
                    double putMiB = largeObjects * 8.0 / timed(pool, largeObjects, i -> store.put("l" + i, large));
                    double getMiB = largeObjects * 8.0 / timed(pool, largeObjects, i -> store.get("l" + i, LARGE)
                            .orElseThrow());
                    System.out.printf(Locale.ROOT, "%s\t%.1f\t%.1f\t%.1f\t%.1f%n", id, put, get, putMiB, getMiB);
                    for (int i = 0; i < KEYS; i++) {
                        store.delete("s" + i);
                    }
                    for (int i = 0; i < largeObjects; i++) {
                        store.delete("l" + i);
                    }
                } finally {
                    store.close();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Operations per second of {@code threads} callers repeating {@code op(n)} for {@code seconds}. */
    private static double opsPerSecond(ExecutorService pool, int threads, double seconds, IntConsumer op)
            throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<Integer>> workers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int offset = t * 1000;
            workers.add(pool.submit(() -> {
                int n = 0;
                while (!stop.get()) {
                    op.accept(offset + n++);
                }
                return n;
            }));
        }
        long end = t0 + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            Thread.sleep(20); // the measurement window, not a wait for a condition
        }
        stop.set(true);
        long total = 0;
        for (Future<Integer> w : workers) {
            total += w.get();
        }
        return total / ((System.nanoTime() - t0) / 1e9);
    }

    /** Seconds for {@code count} operations with 10 callers. */
    private static double timed(ExecutorService pool, int count, IntConsumer op) throws Exception {
        long t0 = System.nanoTime();
        List<Future<?>> all = new ArrayList<>();
        ExecutorService ten = Executors.newFixedThreadPool(10);
        try {
            for (int i = 0; i < count; i++) {
                int n = i;
                all.add(ten.submit(() -> op.accept(n)));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            ten.shutdownNow();
        }
        return (System.nanoTime() - t0) / 1e9;
    }
}
