/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.EmulatedClouds.Kind;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.Toxiproxy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The value cache's benchmark on the emulated clouds (paper Fig. 10): GET latency of Hybris (f=1) over MinIO,
 * Azurite and fake-gcs-server behind toxiproxy (10 / 30 / 60 ms per response), metadata on an in-process
 * ZooKeeper, without a cache and with memcached from the test environment (write-through, warm), for 1 KiB to
 * 10 MiB values; the two clients alternate GET by GET. Linearizable reads: the cached client still reads
 * metadata and hash-checks the cached bytes.
 *
 * <p>Usage: {@code CacheOnEmulatorsBenchmark <endpoints.properties>}.
 */
public final class CacheOnEmulatorsBenchmark {
    private CacheOnEmulatorsBenchmark() {
    }

    /** Runs the benchmark; the argument is the test environment's endpoints file. */
    public static void main(String[] args) throws Exception {
        TestEnvironment env = TestEnvironment.load(Path.of(args[0]));
        EmulatedClouds clouds = new EmulatedClouds(env);
        int[] latencies = {10, 30, 60};
        List<Toxiproxy.Proxy> proxies = new ArrayList<>();
        Kind[] kinds = Kind.values();
        for (int i = 0; i < kinds.length; i++) {
            proxies.add(clouds.proxy(kinds[i]).latency(Duration.ofMillis(latencies[i])));
        }
        String prefix = "cache-bench-" + UUID.randomUUID() + "/";
        CacheSettings cache = CacheSettings.builder().type("memcached", Map.of("servers", env.memcachedAddress(),
                "max-item-size", "16MiB", "timeout", "1s")).build();
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(Files.createTempDirectory("hybris-cache-bench"), 0);
             Hybris plain = open(clouds, zk, prefix, null);
             Hybris cached = open(clouds, zk, prefix, cache)) {
            System.out.println("| value | GET without cache (median / p90 ms) | GET, warm cache (median / p90 ms) |"
                    + " speed-up (median) |");
            System.out.println("|---|---|---|---|");
            for (int kib : new int[] {1, 64, 1024, 10240}) {
                byte[] value = new byte[kib << 10];
                new Random(kib).nextBytes(value);
                String key = "v" + kib;
                cached.put("bench", key, value); // write-through: the cache is warm
                int rounds = kib >= 8192 ? 20 : 40;
                List<Double> without = new ArrayList<>();
                List<Double> with = new ArrayList<>();
                for (int r = 0; r < rounds + 5; r++) {
                    double a = timeGet(plain, key, value.length);
                    double b = timeGet(cached, key, value.length);
                    if (r >= 5) {
                        without.add(a);
                        with.add(b);
                    }
                }
                String size = kib >= 1024 ? (kib / 1024) + " MiB" : kib + " KiB";
                System.out.printf(Locale.ROOT, "| %s | %.1f / %.1f | %.1f / %.1f | %.1f× |%n", size,
                        pct(without, 50), pct(without, 90), pct(with, 50), pct(with, 90),
                        pct(without, 50) / pct(with, 50));
            }
            System.out.println("cache stats: " + cached.cacheStats());
        } finally {
            proxies.forEach(Toxiproxy.Proxy::reset);
        }
    }

    private static Hybris open(EmulatedClouds clouds, EmbeddedZooKeeper zk, String prefix, CacheSettings cache) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1)
                .metadataStore("zookeeper", Map.of("connect", zk.connectString(), "root", "/cache-bench"))
                .cloud(clouds.store("s3", Kind.S3, prefix))
                .cloud(clouds.store("azure", Kind.AZURE, prefix))
                .cloud(clouds.store("gcs", Kind.GCS, prefix))
                .probeInterval(Duration.ZERO).probeOnOpen(true).deadline(Duration.ofSeconds(60));
        if (cache != null) {
            b.cache(cache);
        }
        return Hybris.open(b.build());
    }

    private static double timeGet(Hybris h, String key, int size) {
        long t0 = System.nanoTime();
        byte[] v = h.get("bench", key).orElseThrow();
        double ms = (System.nanoTime() - t0) / 1e6;
        if (v.length != size) {
            throw new IllegalStateException("GET returned " + v.length + " bytes, expected " + size);
        }
        return ms;
    }

    private static double pct(List<Double> xs, double p) {
        double[] sorted = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
