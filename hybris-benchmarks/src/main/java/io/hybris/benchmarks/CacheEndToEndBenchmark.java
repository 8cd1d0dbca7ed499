/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.CacheSettings;
import io.hybris.CacheStats;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * GET latency with and without a warm memcached cache (paper §4.4, Fig. 10) for 1 KiB to 10 MiB values over three
 * in-memory clouds whose GETs take an injected latency, and the hit ratio of a YCSB-B-like mix (95% reads, 5%
 * updates, zipfian keys) with write-through and fill-on-read. The metadata store is in memory, so the figures
 * isolate the value path. Run:
 * {@code java -cp hybris-benchmarks/target/benchmarks.jar io.hybris.benchmarks.CacheEndToEndBenchmark
 * 127.0.0.1:11211 [cloud-latency-ms]} against a memcached started with {@code -I 16m}.
 */
public final class CacheEndToEndBenchmark {
    private static final int[] SIZES = {1 << 10, 64 << 10, 1 << 20, 10 << 20};

    private CacheEndToEndBenchmark() {
    }

    /** A cloud whose GETs take {@code delay} more (the network of a public cloud). */
    private record DelayedCloud(CloudStore delegate, Duration delay) implements CloudStore {
        @Override
        public String id() {
            return delegate.id();
        }

        @Override
        public void put(String objectKey, byte[] value) {
            delegate.put(objectKey, value);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            LockSupport.parkNanos(delay.toNanos());
            return delegate.get(objectKey, maxBytes);
        }

        @Override
        public List<CloudObject> list(String prefix) {
            return delegate.list(prefix);
        }

        @Override
        public void delete(String objectKey) {
            delegate.delete(objectKey);
        }
    }

    public static void main(String[] args) {
        String memcached = args.length > 0 ? args[0] : "127.0.0.1:11211";
        Duration latency = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 30);
        InMemoryMetadataStore metadata = new InMemoryMetadataStore();
        List<CloudStore> clouds = List.of(new DelayedCloud(new InMemoryCloudStore("c1"), latency),
                new DelayedCloud(new InMemoryCloudStore("c2"), latency),
                new DelayedCloud(new InMemoryCloudStore("c3"), latency));
        String prefix = "bench" + Long.toString(System.nanoTime(), 36) + "/";
        CacheSettings cache = CacheSettings.builder()
                .type("memcached", Map.of("servers", memcached, "max-item-size", "16MiB", "timeout", "1s")).build();
        try (Hybris plain = open(metadata, clouds, prefix, "nocache", CacheSettings.none());
             Hybris cached = open(metadata, clouds, prefix, "cached", cache)) {
            System.out.printf("cloud GET latency %d ms, memcached %s%n", latency.toMillis(), memcached);
            System.out.println("| value | GET without cache (ms, median / p90) | GET, warm cache (ms, median / p90) | speed-up |");
            System.out.println("|---|---|---|---|");
            for (int size : SIZES) {
                byte[] value = new byte[size];
                new SplittableRandom(size).nextBytes(value);
                String key = "v" + size;
                cached.put("bench", key, value); // write-through fills the cache
                int n = size >= (10 << 20) ? 15 : 40;
                double[] without = time(plain, key, value, n);
                cached.get("bench", key); // warm
                double[] with = time(cached, key, value, n);
                System.out.printf("| %s | %.2f / %.2f | %.2f / %.2f | %.1fx |%n", human(size), without[0], without[1],
                        with[0], with[1], without[0] / with[0]);
            }
            ycsbB(metadata, clouds, prefix, cache);
        }
    }

    private static void ycsbB(InMemoryMetadataStore metadata, List<CloudStore> clouds, String prefix,
                              CacheSettings cache) {
        int keys = 1000;
        int ops = 5000;
        try (Hybris h = open(metadata, clouds, prefix + "ycsb/", "ycsb", cache)) {
            byte[] value = new byte[1024];
            SplittableRandom random = new SplittableRandom(42);
            // load without the cache (an existing data set): write-through is what the clients' updates do later
            try (Hybris loader = open(metadata, clouds, prefix + "ycsb/", "loader", CacheSettings.none())) {
                for (int k = 0; k < keys; k++) {
                    random.nextBytes(value);
                    loader.put("ycsb", "user" + k, value);
                }
            }
            Zipfian zipf = new Zipfian(keys, 0.99, random);
            long t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                String key = "user" + zipf.next();
                if (random.nextInt(100) < 5) {
                    random.nextBytes(value);
                    h.put("ycsb", key, value);
                } else {
                    h.get("ycsb", key);
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            CacheStats s = h.cacheStats();
            System.out.printf("YCSB-B-like: %d keys of 1 KiB, %d ops (95%% GET / 5%% PUT, zipfian 0.99), one thread:"
                    + " hit ratio %.3f (%d hits, %d misses), %.0f ops/s%n", keys, ops, s.hitRatio(), s.hits(),
                    s.misses(), ops / seconds);
        }
    }

    private static double[] time(Hybris h, String key, byte[] expected, int n) {
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            byte[] got = h.get("bench", key).orElseThrow();
            ms[i] = (System.nanoTime() - t0) / 1e6;
            if (got.length != expected.length) {
                throw new IllegalStateException("wrong value read");
            }
        }
        Arrays.sort(ms);
        return new double[] {ms[n / 2], ms[(int) (n * 0.9)]};
    }

    private static Hybris open(InMemoryMetadataStore metadata, List<CloudStore> clouds, String prefix, String id,
                               CacheSettings cache) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId(id).metadataStore(metadata).objectPrefix(prefix)
                .probeInterval(Duration.ZERO).gcEnabled(false).timerInitial(Duration.ofSeconds(5)).cache(cache);
        clouds.forEach(b::cloud);
        return Hybris.open(b.build());
    }

    private static String human(int size) {
        return size >= 1 << 20 ? (size >> 20) + " MiB" : (size >> 10) + " KiB";
    }

    /** YCSB's zipfian generator (Gray et al.), items 0..n-1, most popular first. */
    private static final class Zipfian {
        private final int n;
        private final double theta;
        private final double alpha;
        private final double zetan;
        private final double eta;
        private final SplittableRandom random;

        Zipfian(int n, double theta, SplittableRandom random) {
            this.n = n;
            this.theta = theta;
            this.random = random;
            this.zetan = zeta(n, theta);
            this.alpha = 1.0 / (1.0 - theta);
            this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta(2, theta) / zetan);
        }

        private static double zeta(int n, double theta) {
            double sum = 0;
            for (int i = 1; i <= n; i++) {
                sum += 1 / Math.pow(i, theta);
            }
            return sum;
        }

        int next() {
            double u = random.nextDouble();
            double uz = u * zetan;
            if (uz < 1.0) {
                return 0;
            }
            if (uz < 1.0 + Math.pow(0.5, theta)) {
                return 1;
            }
            return (int) (n * Math.pow(eta * u - eta + 1, alpha)) % n;
        }
    }
}
