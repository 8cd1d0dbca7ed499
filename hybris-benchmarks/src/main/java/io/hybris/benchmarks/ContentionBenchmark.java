/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Contention on one key (the paper's Fig. 8): {@code N} writers PUT 1 KiB values to the same key for a fixed time,
 * threads sharing one Hybris client over three in-memory clouds, metadata on an in-process ZooKeeper. Per {@code N}:
 * committed PUTs per second (every PUT that returned: each one is linearized, the overwritten ones just before the
 * one that beat them), CAS retries per committed PUT (the commit rule's {@code RETRY}s, from the listener), and
 * each writer's slowest PUT and number of PUTs, so that a starving writer shows.
 *
 * <p>Usage: {@code ContentionBenchmark [seconds per N (10)] [N ... (1 4 16 64)]}.
 */
public final class ContentionBenchmark {
    private ContentionBenchmark() {
    }

    /** Runs the benchmark. */
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        List<Integer> writers = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            writers.add(Integer.parseInt(args[i]));
        }
        if (writers.isEmpty()) {
            writers.addAll(List.of(1, 4, 16, 64));
        }
        LongAdder retries = new LongAdder();
        LongAdder overwritten = new LongAdder();
        HybrisListener counting = new HybrisListener() {
            @Override
            public void casConflict(String container, int keys, ConflictResolution resolution) {
                if (resolution == ConflictResolution.RETRY) {
                    retries.increment();
                } else if (resolution == ConflictResolution.OVERWRITTEN) {
                    overwritten.increment();
                }
            }
        };
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(Files.createTempDirectory("hybris-contention"), 0);
             Hybris h = Hybris.open(HybrisConfig.builder().f(1)
                     .metadataStore("zookeeper", Map.of("connect", zk.connectString(), "root", "/contention"))
                     .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                     .cloud(new InMemoryCloudStore("c2")).probeInterval(Duration.ZERO).listener(counting).build())) {
            byte[] value = new byte[1024];
            for (int i = 0; i < 200; i++) { // warm-up
                h.put("hot", "key", value);
            }
            System.out.printf(Locale.ROOT, "one key, 1 KiB values, threads sharing one client, %d s per row; metadata"
                    + " on an in-process ZooKeeper, three in-memory clouds%n%n", seconds);
            System.out.println("| writers | committed PUTs/s | vs N=1 | CAS retries per PUT | overwritten per PUT |"
                    + " p50 ms | max ms | fewest PUTs of one writer |");
            System.out.println("|---|---|---|---|---|---|---|---|");
            double base = 0;
            for (int n : writers) {
                retries.reset();
                overwritten.reset();
                Row row = run(h, n, seconds, value);
                double rate = row.puts / (double) seconds;
                base = base == 0 ? rate : base;
                System.out.printf(Locale.ROOT, "| %d | %.0f | %.2f | %.3f | %.3f | %.2f | %.1f | %d |%n", n, rate,
                        rate / base, retries.sum() / (double) row.puts, overwritten.sum() / (double) row.puts,
                        row.p50Ms, row.maxMs, row.fewest);
            }
        }
    }

    private record Row(long puts, double p50Ms, double maxMs, long fewest) {
    }

    private static Row run(Hybris h, int n, int seconds, byte[] value) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<List<Long>>> futures = new ArrayList<>();
        for (int w = 0; w < n; w++) {
            futures.add(pool.submit(() -> {
                List<Long> nanos = new ArrayList<>();
                while (!stop.get()) {
                    long t0 = System.nanoTime();
                    h.put("hot", "key", value);
                    nanos.add(System.nanoTime() - t0);
                }
                return nanos;
            }));
        }
        TimeUnit.SECONDS.sleep(seconds); // the measurement window itself, not a wait for a condition
        stop.set(true);
        List<Long> all = new ArrayList<>();
        long fewest = Long.MAX_VALUE;
        for (Future<List<Long>> f : futures) {
            List<Long> mine = f.get(2, TimeUnit.MINUTES);
            all.addAll(mine);
            fewest = Math.min(fewest, mine.size());
        }
        pool.shutdown();
        all.sort(null);
        return new Row(all.size(), all.get(all.size() / 2) / 1e6, all.get(all.size() - 1) / 1e6, fewest);
    }
}
