/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cost.CloudUsage;
import io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.TestEnvironment;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Scrub and repair on the emulated clouds (docs/scrub.md): Hybris f=1 over MinIO, Azurite and fake-gcs-server (no
 * injected latency), metadata on an in-process ZooKeeper. Writes replicated, erasure-coded (k=2) and chunked values,
 * then measures, per kind: a listing scrub and a deep scrub of the healthy data (keys/s, LIST and GET requests per
 * cloud, MiB/s read), and, after every object of one cloud is deleted behind Hybris's back, a repairing listing scrub
 * (keys/s, MiB/s rebuilt, bytes read per byte rebuilt: the repair traffic against the bytes actually missing).
 *
 * <p>Usage: {@code ScrubBenchmark <endpoints.properties> [keys per kind (300)] [value KiB (64)]}.
 */
public final class ScrubBenchmark {
    private ScrubBenchmark() {
    }

    /** Runs the benchmark; the first argument is the test environment's endpoints file. */
    public static void main(String[] args) throws Exception {
        EmulatedClouds emulated = new EmulatedClouds(TestEnvironment.load(Path.of(args[0])));
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        int valueKib = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        String prefix = "scrub-bench-" + UUID.randomUUID().toString().substring(0, 8) + "/";
        List<CloudStore> clouds = emulated.threeStores(prefix);
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(Files.createTempDirectory("hybris-scrub-bench"), 0)) {
            HybrisConfig.Builder b = HybrisConfig.builder().f(1)
                    .metadataStore("zookeeper", Map.of("connect", zk.connectString(), "root", "/scrub-bench"))
                    .probeInterval(Duration.ZERO).deadline(Duration.ofSeconds(120)).chunkSize(1 << 20)
                    .chunkThreshold(1 << 20).containerErasurePolicy("coded", ErasurePolicy.ERASURE);
            clouds.forEach(b::cloud);
            try (Hybris h = Hybris.open(b.build())) {
                Random random = new Random(1);
                for (int i = 0; i < keys; i++) {
                    byte[] v = new byte[valueKib << 10];
                    random.nextBytes(v);
                    h.put("plain", "k" + i, v);
                    h.put("coded", "k" + i, v);
                    if (i < keys / 10) { // fewer, larger chunked values: 3 chunks of 1 MiB and a manifest
                        byte[] big = new byte[3 << 20];
                        random.nextBytes(big);
                        h.put("big", "k" + i, new ByteArrayInputStream(big), big.length);
                    }
                }
                System.out.printf(Locale.ROOT, "%d replicated and %d erasure-coded values of %d KiB, %d chunked"
                        + " values of 3 MiB (1 MiB chunks); f=1 over %s%n%n", keys, keys, valueKib, keys / 10,
                        clouds.stream().map(CloudStore::id).toList());
                header();
                for (String container : List.of("plain", "coded", "big")) {
                    run(h, container, "listing, healthy", ScrubOptions.listing());
                    run(h, container, "deep, healthy", ScrubOptions.listing().deep(true));
                }
                CloudStore wiped = clouds.get(1);
                long missing = 0;
                for (CloudObject o : wiped.list("")) { // the stores are scoped to the prefix already
                    missing += o.size();
                    wiped.delete(o.key());
                }
                System.out.printf(Locale.ROOT, "%n(deleted every object on %s: %.1f MiB)%n%n", wiped.id(),
                        missing / 1048576.0);
                header();
                for (String container : List.of("plain", "coded", "big")) {
                    run(h, container, "listing + repair, " + wiped.id() + " wiped",
                            ScrubOptions.listing().repair(true));
                }
            }
        } finally {
            for (CloudStore c : clouds) {
                c.list("").forEach(o -> c.delete(o.key()));
                c.close();
            }
        }
    }

    private static void header() {
        System.out.println("| container | phase | keys | keys/s | PUT+LIST requests (busiest cloud) | GET requests"
                + " | MiB read | copies rebuilt | MiB rebuilt | MiB/s rebuilt | read / rebuilt |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    }

    private static void run(Hybris h, String container, String phase, ScrubOptions options) {
        Map<String, CloudUsage> before = h.cloudUsage();
        long t0 = System.nanoTime();
        ScrubReport r = h.scrub(options.containers(container));
        double seconds = (System.nanoTime() - t0) / 1e9;
        Map<String, CloudUsage> after = h.cloudUsage();
        long putList = 0;
        long gets = 0;
        for (String cloud : after.keySet()) {
            CloudUsage d = after.get(cloud).minus(before.get(cloud));
            putList = Math.max(putList, d.putListRequests());
            gets += d.getHeadRequests();
        }
        System.out.printf(Locale.ROOT, "| %s | %s | %d | %.0f | %d | %d | %.1f | %d | %.1f | %.1f | %s |%n", container,
                phase, r.keysChecked(), r.keysChecked() / seconds, putList, gets, r.bytesRead() / 1048576.0,
                r.copiesRepaired(), r.bytesWritten() / 1048576.0, r.bytesWritten() / 1048576.0 / seconds,
                r.bytesWritten() == 0 ? "—" : String.format(Locale.ROOT, "%.2f", (double) r.bytesRead()
                        / r.bytesWritten()));
        if (r.unrecoverable() > 0 || r.degraded() > 0) {
            throw new IllegalStateException(container + " " + phase + ": " + r);
        }
    }
}
