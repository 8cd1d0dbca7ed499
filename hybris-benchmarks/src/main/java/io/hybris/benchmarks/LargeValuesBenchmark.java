/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.TestEnvironment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The large-value (streaming) benchmark, end to end: a value of {@code size} MiB (default 1 GiB) PUT and GET through
 * Hybris (f=1, the real S3 / Azure / GCS drivers on MinIO, Azurite and fake-gcs-server, each behind its toxiproxy
 * proxy) and moved the same way by the provider SDKs directly, repetition by repetition, alternating which side goes
 * first:
 * <ul>
 *   <li>PUT baseline: an S3 multipart upload (parts of the chunk size, the same number of parts in flight as
 *       {@code hybris.chunk.parallel-uploads}) to MinIO and an Azure block-blob upload (staged blocks of the chunk
 *       size, same parallelism, then the block list) to Azurite, <em>run at the same time</em>; the pair is done when
 *       the slower one is. Hybris writes every chunk to the two fastest clouds (here S3 and Azure), so this pair
 *       moves the same bytes to the same servers at the same time.</li>
 *   <li>GET baseline: ranged S3 GETs of the chunk size on MinIO, as many ahead as {@code hybris.chunk.read-ahead},
 *       read in order as one stream through the same 1 MiB buffer as the Hybris stream.</li>
 * </ul>
 * Then the live-heap high-water mark of each operation (full GCs forced every 100 ms, after-GC heap from the GC
 * notifications, minus the live heap before the operation), and the time to first byte of range reads against a
 * single chunk-sized direct GET, a manifest-sized direct GET and a metadata read.
 *
 * <p>Usage: {@code LargeValuesBenchmark <endpoints.properties> [key=value ...]}: {@code size} (MiB, 1024),
 * {@code reps} (5), {@code latency} (ms per proxy s3,azure,gcs: 10,30,60), {@code metadata} ({@code zookeeper}: the
 * embedded ZooKeeper module, in process; or {@code memory}: the in-memory store), {@code chunk} (MiB, 8),
 * {@code parallel} (4), {@code readahead} (4), {@code ttfb} (rounds, 15), {@code heap} (true), {@code warmup} (MiB
 * of the warm-up value, checked byte for byte on both sides: 256), {@code first} (index of the first repetition,
 * whose parity decides which side goes first). Each repetition prints a {@code RESULT} line;
 * {@code LargeValuesBenchmark --summarize <files>} tabulates those of several runs. See {@code bench/large-values.sh}.
 */
public final class LargeValuesBenchmark {
    static final String BUCKET = EmulatedClouds.BUCKET;
    static final String CONTAINER = "large";
    static final String KEY = "v";
    static final int MiB = 1 << 20;
    static final int BUFFER = MiB;

    private LargeValuesBenchmark() {
    }

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        if (args.length >= 1 && args[0].equals("--summarize")) {
            summarize(List.of(args).subList(1, args.length));
            return;
        }
        if (args.length < 1) {
            System.err.println("usage: LargeValuesBenchmark <endpoints.properties> [size=MiB] [reps=n] "
                    + "[latency=s3,azure,gcs] [metadata=zookeeper|memory] [chunk=MiB] [parallel=n] [readahead=n] "
                    + "[ttfb=rounds] [heap=true|false] [warmup=MiB] [first=0|1]\n"
                    + "       LargeValuesBenchmark --summarize <output files...>");
            System.exit(2);
        }
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("expected key=value: " + args[i]);
            }
            o.put(kv[0], kv[1]);
        }
        new LargeValuesRun(TestEnvironment.load(Path.of(args[0])), o).run();
    }

    /** Prints the throughput table of the RESULT lines in the output files of several runs. */
    private static void summarize(List<String> files) throws IOException {
        List<String> results = new ArrayList<>();
        long size = 0;
        for (String f : files) {
            for (String line : Files.readAllLines(Path.of(f))) {
                if (line.startsWith("RESULT ")) {
                    results.add(line);
                } else if (line.startsWith("# value ")) {
                    size = Long.parseLong(line.split(" ")[2]) * MiB;
                }
            }
        }
        printThroughput(results, size);
    }

    static void printThroughput(List<String> results, long size) {
        Map<String, ThroughputSeries> s = new LinkedHashMap<>();
        for (String line : results) {
            for (String kv : line.substring("RESULT ".length()).split(" ")) {
                String[] p = kv.split("=", 2);
                if (!p[0].equals("rep") && !p[0].equals("first")) {
                    s.computeIfAbsent(p[0], k -> new ThroughputSeries()).add(Double.parseDouble(p[1]));
                }
            }
        }
        if (s.isEmpty()) {
            return;
        }
        ThroughputSeries hPut = s.get("hybrisPut"), pair = s.get("pair"), s3 = s.get("s3"), az = s.get("azure");
        ThroughputSeries hGet = s.get("hybrisGet"), dGet = s.get("directGet"), dhGet = s.get("directGetHashed");
        System.out.printf(Locale.ROOT, "Throughput, %d MiB value, MiB/s, median [min - max] of %d repetitions:%n%n",
                size / MiB, results.size());
        System.out.println("| operation | Hybris | direct SDK baseline | baseline | Hybris / baseline (medians) |");
        System.out.println("|---|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| PUT | %s | S3 multipart and Azure staged blocks at once (done when both "
                + "are) | %s | **%.2f** |%n", hPut, pair, hPut.median() / pair.median());
        System.out.printf(Locale.ROOT, "| PUT | | of which S3 multipart | %s | %.2f |%n", s3, hPut.median() / s3.median());
        System.out.printf(Locale.ROOT, "| PUT | | of which Azure staged blocks | %s | %.2f |%n", az,
                hPut.median() / az.median());
        System.out.printf(Locale.ROOT, "| GET | %s | S3 ranged GETs, read ahead | %s | **%.2f** |%n", hGet, dGet,
                hGet.median() / dGet.median());
        System.out.printf(Locale.ROOT, "| GET | | S3 ranged GETs, read ahead, SHA-256 as they arrive | %s | %.2f |%n",
                dhGet, hGet.median() / dhGet.median());
        System.out.println();
        if (s.containsKey("hybrisPutCpu")) {
            System.out.println("CPU seconds this JVM used per operation (all threads, GC included; the emulators' "
                    + "CPU not counted), median [min - max]:");
            System.out.println();
            System.out.println("| operation | Hybris | baseline | Hybris - baseline |");
            System.out.println("|---|---|---|---|");
            System.out.printf(Locale.ROOT, "| PUT (baseline: the pair) | %s | %s | %+.2f |%n", s.get("hybrisPutCpu"),
                    s.get("pairCpu"), s.get("hybrisPutCpu").median() - s.get("pairCpu").median());
            System.out.printf(Locale.ROOT, "| GET (baseline: ranged GETs) | %s | %s | %+.2f |%n", s.get("hybrisGetCpu"),
                    s.get("directGetCpu"), s.get("hybrisGetCpu").median() - s.get("directGetCpu").median());
            System.out.printf(Locale.ROOT, "| GET (baseline: ranged GETs + SHA-256) | | %s | %+.2f |%n",
                    s.get("directGetHashedCpu"), s.get("hybrisGetCpu").median() - s.get("directGetHashedCpu").median());
            System.out.println();
        }
    }

    @FunctionalInterface
    interface Call {
        void run() throws Exception;
    }

}
