/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.PutOptions;
import io.hybris.ValueStream;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper;
import io.hybris.spi.CloudStore;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;

/**
 * How long two sync clients take to propagate 1,000 small files and one 100 MiB file from one folder to the other
 * over the embedded default (an in-process ZooKeeper and three directory clouds, f=1; {@link SyncDemo}'s wiring),
 * side by side with the fair baseline: the same deployment and the same transfers through the plain API, a writer
 * putting each file (streamed, {@code ifAbsent}) and handing its key at once to a reader that streams it into the
 * other folder (temp file, then rename) — an ideal notification, no scan, no feed, no state. The difference is what
 * the sync machinery costs: the folder scan, the content hash it stores with each version, the feed's notification
 * and the state file. Rounds alternate baseline and sync; each round uses a fresh deployment.
 *
 * <pre>{@code
 * bench/sync.sh            # or: mvn -pl examples exec:java -Dexec.mainClass=io.hybris.examples.sync.SyncPropagationBenchmark -Dexec.args="<dir> <rounds>"
 * }</pre>
 */
public final class SyncPropagationBenchmark {
    private static final String CONTAINER = "bench";
    private static final int SMALL_FILES = 1000;
    private static final int SMALL_BYTES = 4096;
    private static final long LARGE_BYTES = 100L << 20;

    private SyncPropagationBenchmark() {
    }

    /** Arguments: a scratch directory (default {@code target/sync-bench}), rounds (default 3). */
    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.zookeeper", "error");
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.curator", "warn");
        Path dir = Path.of(args.length > 0 ? args[0] : "target/sync-bench").toAbsolutePath();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<Double> syncSmall = new ArrayList<>();
        List<Double> baseSmall = new ArrayList<>();
        List<Double> syncLarge = new ArrayList<>();
        List<Double> baseLarge = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            baseSmall.add(baseline(dir.resolve("r" + r + "-base-small"), false));
            syncSmall.add(sync(dir.resolve("r" + r + "-sync-small"), false));
            baseLarge.add(baseline(dir.resolve("r" + r + "-base-large"), true));
            syncLarge.add(sync(dir.resolve("r" + r + "-sync-large"), true));
            System.out.printf("round %d: small base %.2f s sync %.2f s; large base %.2f s sync %.2f s%n", r + 1,
                    baseSmall.get(r), syncSmall.get(r), baseLarge.get(r), syncLarge.get(r));
        }
        System.out.println();
        System.out.println("| transfer | baseline (API, ideal notification) | two sync clients | sync / baseline |");
        System.out.println("|---|---|---|---|");
        row("1,000 files of 4 KiB", baseSmall, syncSmall);
        row("one 100 MiB file", baseLarge, syncLarge);
    }

    private static void row(String what, List<Double> base, List<Double> sync) {
        double b = median(base);
        double s = median(sync);
        System.out.printf("| %s | %.2f s | %.2f s | %.2f |%n", what, b, s, s / b);
    }

    private static double median(List<Double> xs) {
        List<Double> sorted = xs.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** Seconds from the files' appearance in alice's folder until bob's folder holds them all, identical. */
    private static double sync(Path dir, boolean large) throws Exception {
        Path alice = dir.resolve("alice");
        Path bob = dir.resolve("bob");
        Files.createDirectories(alice);
        Files.createDirectories(bob);
        Path staging = Files.createDirectories(dir.resolve("staging"));
        List<Path> files = makeFiles(staging, large);
        try (SyncDemo.Running running = SyncDemo.start(alice, bob, dir.resolve("data"), Duration.ofMillis(200),
                new PrintStream(OutputStream.nullOutputStream()))) {
            long t0 = System.nanoTime();
            for (Path f : files) { // rename into place: the scanner never sees a half-written file
                Files.move(f, alice.resolve(f.getFileName()), StandardCopyOption.ATOMIC_MOVE);
            }
            awaitSame(alice, bob, files.size());
            return (System.nanoTime() - t0) / 1e9;
        }
    }

    /** The same transfers through the API: put each file, hand its key to a reader that writes it into bob. */
    private static double baseline(Path dir, boolean large) throws Exception {
        Path alice = Files.createDirectories(dir.resolve("alice"));
        Path bob = Files.createDirectories(dir.resolve("bob"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        List<Path> files = makeFiles(Files.createDirectories(dir.resolve("staging")), large);
        Path data = dir.resolve("data");
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(data.resolve("zookeeper"), 0);
             Hybris writer = open("alice", zk, data);
             Hybris reader = open("bob", zk, data)) {
            long t0 = System.nanoTime();
            for (Path f : files) {
                Files.move(f, alice.resolve(f.getFileName()), StandardCopyOption.ATOMIC_MOVE);
            }
            BlockingQueue<String> keys = new LinkedBlockingQueue<>();
            Thread download = new Thread(() -> {
                try {
                    for (int i = 0; i < files.size(); i++) {
                        String key = keys.take();
                        Path part = tmp.resolve(key + ".part");
                        try (ValueStream in = reader.getStream(CONTAINER, key).orElseThrow()) {
                            Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
                        }
                        Files.move(part, bob.resolve(key), StandardCopyOption.ATOMIC_MOVE);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, "baseline-reader");
            download.start();
            for (Path f : files) {
                Path local = alice.resolve(f.getFileName());
                try (InputStream in = Files.newInputStream(local)) {
                    writer.put(CONTAINER, local.getFileName().toString(), in, Files.size(local), PutOptions.ifAbsent());
                }
                keys.add(local.getFileName().toString());
            }
            download.join();
            awaitSame(alice, bob, files.size());
            return (System.nanoTime() - t0) / 1e9;
        }
    }

    private static Hybris open(String client, EmbeddedZooKeeper zk, Path data) {
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).clientId(client)
                .metadataStore("zookeeper", Map.of("connect", zk.connectString()));
        for (String id : List.of("disk1", "disk2", "disk3")) {
            CloudStore cloud = new DirectoryCloudStore(id, data.resolve("cloud-" + id));
            config.cloud(cloud);
        }
        return Hybris.open(config.build());
    }

    private static List<Path> makeFiles(Path staging, boolean large) throws IOException {
        Random random = new Random(42);
        List<Path> files = new ArrayList<>();
        if (large) {
            Path f = staging.resolve("large.bin");
            byte[] block = new byte[1 << 20];
            try (OutputStream out = Files.newOutputStream(f)) {
                for (long written = 0; written < LARGE_BYTES; written += block.length) {
                    random.nextBytes(block);
                    out.write(block);
                }
            }
            files.add(f);
        } else {
            byte[] b = new byte[SMALL_BYTES];
            for (int i = 0; i < SMALL_FILES; i++) {
                random.nextBytes(b);
                Path f = staging.resolve(String.format("file-%04d.bin", i));
                Files.write(f, b);
                files.add(f);
            }
        }
        return files;
    }

    /** Waits until bob holds {@code n} files with alice's sizes (contents checked once at the end). */
    private static void awaitSame(Path alice, Path bob, int n) throws Exception {
        long giveUp = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (true) {
            if (count(bob, alice) == n) {
                break;
            }
            if (System.nanoTime() > giveUp) {
                throw new IllegalStateException("bob did not get all " + n + " files within 10 minutes");
            }
            Thread.sleep(20); // polling the folder is the measurement's clock, not a test wait
        }
        try (Stream<Path> files = Files.list(alice)) {
            for (Path a : files.filter(Files::isRegularFile).toList()) {
                if (Files.mismatch(a, bob.resolve(a.getFileName())) != -1) {
                    throw new IllegalStateException(a.getFileName() + " differs in bob's folder");
                }
            }
        }
    }

    private static int count(Path bob, Path alice) throws IOException {
        try (Stream<Path> files = Files.list(bob)) {
            int n = 0;
            for (Path b : files.filter(Files::isRegularFile).toList()) {
                Path a = alice.resolve(b.getFileName());
                if (Files.exists(a) && Files.size(a) == Files.size(b)) {
                    n++;
                }
            }
            return n;
        }
    }
}
