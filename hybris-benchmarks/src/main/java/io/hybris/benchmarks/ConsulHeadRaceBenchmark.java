/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.rmds.consul.ConsulMetadataStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionedValue;
import io.hybris.testkit.ConsulTestAgent;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Commits of several Consul clients to <em>one</em> container, which contend on that container's change-log head
 * (the scalability benchmark gives each client process its own container, so it does not show this): {@code
 * clients} {@link ConsulMetadataStore}s in this JVM — each with its own commit queue and head cache, as separate
 * processes would have — times {@code threads} threads each, every thread updating its own key (read, then
 * conditional update at the version read, 200-byte values) as fast as it can. Prints commits/s, p50/p99 latency and
 * failures per point, on a Consul dev agent it starts.
 *
 * <p>Usage: {@code ConsulHeadRaceBenchmark [--clients 2,4,8] [--threads 1,8] [--seconds 3]}; needs
 * {@code -Dhybris.test.consul=<consul binary>}.
 */
public final class ConsulHeadRaceBenchmark {
    private ConsulHeadRaceBenchmark() {
    }

    /** Runs the benchmark. */
    public static void main(String[] args) throws Exception {
        List<Integer> clients = List.of(2, 4, 8);
        List<Integer> threads = List.of(1, 8);
        double seconds = 3;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--clients" -> clients = Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf).toList();
                case "--threads" -> threads = Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf).toList();
                case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        out.println("| clients | threads each | commits/s | p50 / p99 ms | failures |");
        out.println("|---|---|---|---|---|");
        try (ConsulTestAgent agent = ConsulTestAgent.dev("limits { http_max_conns_per_client = 4096 }\n")) {
            int run = 0;
            for (int c : clients) {
                for (int t : threads) {
                    out.println(point(agent.address(), "race-" + run++, c, t, seconds));
                }
            }
        }
        System.exit(0); // client libraries may leave non-daemon threads behind
    }

    private static String point(String address, String prefix, int clients, int threads, double seconds)
            throws Exception {
        List<ConsulMetadataStore> stores = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            stores.add(ConsulMetadataStore.builder().address(address).keyPrefix(prefix).build());
        }
        AtomicLong commits = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        for (int s = 0; s < clients; s++) {
            ConsulMetadataStore store = stores.get(s);
            for (int w = 0; w < threads; w++) {
                MetadataKey key = new MetadataKey("shared", "c" + s + "-t" + w);
                Thread worker = new Thread(() -> {
                    while (!stop.get()) {
                        long t0 = System.nanoTime();
                        try {
                            MetadataVersion v = store.read(key).map(VersionedValue::version)
                                    .orElse(MetadataVersion.ABSENT);
                            store.conditionalUpdate(new MetadataUpdate(key, new byte[200], v));
                            if (measuring.get()) {
                                commits.incrementAndGet();
                                latencies.add(System.nanoTime() - t0);
                            }
                        } catch (Exception e) {
                            if (measuring.get()) {
                                failures.incrementAndGet();
                            }
                        }
                    }
                }, "head-race-" + s + "-" + w);
                worker.start();
                workers.add(worker);
            }
        }
        Thread.sleep(1000); // warm-up
        measuring.set(true);
        long start = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        measuring.set(false);
        long elapsed = System.nanoTime() - start;
        stop.set(true);
        for (Thread worker : workers) {
            worker.join();
        }
        stores.forEach(ConsulMetadataStore::close);
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        double p50 = sorted.length == 0 ? 0 : sorted[sorted.length / 2] / 1e6;
        double p99 = sorted.length == 0 ? 0 : sorted[(int) (sorted.length * 0.99)] / 1e6;
        return String.format(Locale.ROOT, "| %d | %d | %,.0f | %.2f / %.2f | %d |", clients, threads,
                commits.get() / (elapsed / 1e9), p50, p99, failures.get());
    }
}
