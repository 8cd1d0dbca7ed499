/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import com.azure.storage.blob.BlobContainerClient;
import io.hybris.ByteRange;
import io.hybris.Hybris;
import io.hybris.ValueStream;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;
import io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.EmulatedClouds.Kind;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.Toxiproxy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static io.hybris.benchmarks.LargeValuesBenchmark.*;

/** Part of {@link LargeValuesBenchmark}. */
final class LargeValuesRun {
    private final TestEnvironment env;
    private final EmulatedClouds clouds;
    private final String prefix = "bench-large-" + UUID.randomUUID() + "/";
    private final long size;
    private final int reps;
    private final int firstRep;
    private final long warmupSize;
    private final int[] latencies;
    private final String metadataKind;
    private final int chunk;
    private final int parallel;
    private final int readAhead;
    private final int ttfbRounds;
    private final boolean heap;
    private final String directName;
    private final CloudCallCounter counter = new CloudCallCounter();
    private final DirectTransfers direct;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "bench-direct");
        t.setDaemon(true);
        return t;
    });

    LargeValuesRun(TestEnvironment env, Map<String, String> o) {
        this.env = env;
        this.clouds = new EmulatedClouds(env);
        this.size = Long.parseLong(o.getOrDefault("size", "1024")) * MiB;
        this.reps = Integer.parseInt(o.getOrDefault("reps", "5"));
        this.firstRep = Integer.parseInt(o.getOrDefault("first", "0"));
        this.warmupSize = Long.parseLong(o.getOrDefault("warmup", "256")) * MiB;
        String[] l = o.getOrDefault("latency", "10,30,60").split(",");
        this.latencies = new int[] {Integer.parseInt(l[0]), Integer.parseInt(l[1]), Integer.parseInt(l[2])};
        this.metadataKind = o.getOrDefault("metadata", "zookeeper");
        this.chunk = Integer.parseInt(o.getOrDefault("chunk", "8")) * MiB;
        this.parallel = Integer.parseInt(o.getOrDefault("parallel", "4"));
        this.readAhead = Integer.parseInt(o.getOrDefault("readahead", "4"));
        this.ttfbRounds = Integer.parseInt(o.getOrDefault("ttfb", "15"));
        this.heap = Boolean.parseBoolean(o.getOrDefault("heap", "true"));
        this.directName = prefix + "direct/value";
        this.direct = new DirectTransfers(env, directName, chunk, parallel, readAhead, pool);
    }

    void run() throws Exception {
        Map<Kind, Toxiproxy.Proxy> proxies = new LinkedHashMap<>();
        Kind[] kinds = Kind.values();
        for (int i = 0; i < kinds.length; i++) {
            proxies.put(kinds[i], clouds.proxy(kinds[i]).latency(Duration.ofMillis(latencies[i])));
        }
        Path zkDir = Files.createTempDirectory("hybris-bench-large-zk");
        EmbeddedZooKeeper zk = null;
        MetadataStore store;
        MetadataStore rawStore; // the same kind of store, outside Hybris: the metadata read of the TTFB section
        if (metadataKind.equals("memory")) {
            store = new InMemoryMetadataStore();
            rawStore = store;
        } else if (metadataKind.equals("zookeeper")) {
            zk = EmbeddedZooKeeper.start(zkDir, 0);
            store = ZooKeeperMetadataStore.builder().connect(zk.connectString()).root("/bench").build();
            rawStore = ZooKeeperMetadataStore.builder().connect(zk.connectString()).root("/bench").build();
        } else {
            throw new IllegalArgumentException("metadata=zookeeper|memory, not " + metadataKind);
        }
        S3Client s3 = direct.s3Client();
        BlobContainerClient azure = direct.azureClient();
        try (Hybris hybris = Hybris.open(Hybris.builder().f(1)
                .metadataStore(store)
                .listener(counter)
                .cloud(clouds.store("s3", Kind.S3, prefix + "hybris/"))
                .cloud(clouds.store("azure", Kind.AZURE, prefix + "hybris/"))
                .cloud(clouds.store("gcs", Kind.GCS, prefix + "hybris/"))
                .chunkThreshold(chunk).chunkSize(chunk).chunkParallelUploads(parallel).chunkReadAhead(readAhead)
                .maxValueSize(Math.max(size, 2L * chunk) * 2)
                .probeInterval(Duration.ZERO)
                .deadline(Duration.ofSeconds(120))
                .build())) {
            System.out.printf(Locale.ROOT, "# value %d MiB in %d MiB chunks, %d parallel uploads, read-ahead %d;"
                            + " latency per response s3 %d / azure %d / gcs %d ms; metadata: %s; JVM max heap %d MiB;"
                            + " %d cores%n", size / MiB, chunk / MiB, parallel, readAhead, latencies[0], latencies[1],
                    latencies[2], metadataKind.equals("memory") ? "in-memory store"
                            : "embedded ZooKeeper (in process)", Runtime.getRuntime().maxMemory() / MiB,
                    Runtime.getRuntime().availableProcessors());
            warmUp(hybris, s3, azure);
            if (reps > 0) {
                throughput(hybris, s3, azure);
            } else {
                hybrisPut(hybris, size); // the value the heap and TTFB sections read
                direct.directPutPair(s3, azure, size);
            }
            if (ttfbRounds > 0) { // before the heap section, whose forced full GCs stall requests past their timers
                ttfb(hybris, s3, rawStore);
            }
            if (heap) {
                heap(hybris, s3, azure);
            }
        } finally {
            if (rawStore != store) {
                rawStore.close();
                store.close();
            }
            s3.close();
            pool.shutdownNow();
            if (zk != null) {
                zk.close();
            }
            proxies.values().forEach(Toxiproxy.Proxy::reset);
        }
    }

    // ------------------------------------------------------------------ the operations

    private void hybrisPut(Hybris hybris, long size) {
        hybris.put(CONTAINER, KEY, ValuePattern.stream(size), size);
    }

    private long hybrisGet(Hybris hybris) throws IOException {
        try (ValueStream in = hybris.getStream(CONTAINER, KEY).orElseThrow()) {
            return drain(in);
        }
    }

    static long drain(InputStream in) throws IOException {
        byte[] buffer = new byte[BUFFER];
        long total = 0;
        for (int n; (n = in.read(buffer)) > 0; ) {
            total += n;
        }
        return total;
    }

    // ------------------------------------------------------------------ warm-up and checks

    private void warmUp(Hybris hybris, S3Client s3, BlobContainerClient azure) throws Exception {
        long t0 = System.nanoTime();
        long size = warmupSize;
        counter.reset();
        hybrisPut(hybris, size);
        System.out.printf(Locale.ROOT, "# warm-up: Hybris PUT stored %s (chunk and manifest PUTs per cloud)%n",
                counter.describe());
        try (ValueStream in = hybris.getStream(CONTAINER, KEY).orElseThrow()) {
            long n = ValuePattern.verify(in, 0);
            check(n == size, "Hybris GET returned " + n + " bytes");
        }
        counter.reset();
        hybrisGet(hybris);
        System.out.printf(Locale.ROOT, "# warm-up: Hybris GET read chunks from %s%n", counter.describeGets());
        direct.directPutPair(s3, azure, size);
        try (InputStream in = direct.directGetStream(s3, 0, size, true)) {
            check(ValuePattern.verify(in, 0) == size, "direct GET length");
        }
        direct.directGet(s3, size, false);
        long azureLength = azure.getBlobClient(directName).getProperties().getBlobSize();
        check(azureLength == size, "Azure blob holds " + azureLength);
        System.out.printf(Locale.ROOT, "# warm-up and byte-for-byte checks of both sides (%d MiB): %.1f s%n",
                size / MiB, (System.nanoTime() - t0) / 1e9);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }

    // ------------------------------------------------------------------ throughput

    private void throughput(Hybris hybris, S3Client s3, BlobContainerClient azure) throws Exception {
        List<String> results = new ArrayList<>();
        Map<String, Long> hybrisPutsByCloud = new LinkedHashMap<>();
        for (int r = firstRep; r < firstRep + reps; r++) {
            boolean hybrisFirst = r % 2 == 0;
            double hPut = 0, pair = 0, hGet = 0, dGet = 0, dhGet = 0;
            double hPutCpu = 0, pairCpu = 0, hGetCpu = 0, dGetCpu = 0, dhGetCpu = 0; // this JVM's CPU seconds
            double[] each = null;
            for (int side = 0; side < 2; side++) {
                if ((side == 0) == hybrisFirst) {
                    counter.reset();
                    long c0 = cpuNanos();
                    long t0 = System.nanoTime();
                    hybrisPut(hybris, size);
                    hPut = mibPerSecond(System.nanoTime() - t0);
                    hPutCpu = (cpuNanos() - c0) / 1e9;
                    counter.puts.forEach((k, v) -> hybrisPutsByCloud.merge(k, v.get(), Long::sum));
                    System.out.println("# Hybris PUT: " + counter.diagnostics());
                } else {
                    long c0 = cpuNanos();
                    long t0 = System.nanoTime();
                    each = direct.directPutPair(s3, azure, size);
                    pair = mibPerSecond(System.nanoTime() - t0);
                    pairCpu = (cpuNanos() - c0) / 1e9;
                }
            }
            // GETs: Hybris, the direct ranged GETs, and the direct ranged GETs hashing what arrives (SHA-256,
            // which Hybris does to check every chunk), Hybris first or last
            for (int i = 0; i < 3; i++) {
                int which = hybrisFirst ? i : (i + 1) % 3;
                long c0 = cpuNanos();
                long t0 = System.nanoTime();
                if (which == 0) {
                    counter.reset();
                    check(hybrisGet(hybris) == size, "Hybris GET length");
                    hGet = mibPerSecond(System.nanoTime() - t0);
                    hGetCpu = (cpuNanos() - c0) / 1e9;
                    System.out.println("# Hybris GET: " + counter.diagnostics());
                } else if (which == 1) {
                    check(direct.directGet(s3, size, false) == size, "direct GET length");
                    dGet = mibPerSecond(System.nanoTime() - t0);
                    dGetCpu = (cpuNanos() - c0) / 1e9;
                } else {
                    check(direct.directGet(s3, size, true) == size, "direct GET length");
                    dhGet = mibPerSecond(System.nanoTime() - t0);
                    dhGetCpu = (cpuNanos() - c0) / 1e9;
                }
            }
            String line = String.format(Locale.ROOT, "RESULT rep=%d first=%s hybrisPut=%.2f pair=%.2f s3=%.2f "
                            + "azure=%.2f hybrisGet=%.2f directGet=%.2f directGetHashed=%.2f", r + 1,
                    hybrisFirst ? "hybris" : "direct", hPut, pair, size / (double) MiB / each[0],
                    size / (double) MiB / each[1], hGet, dGet, dhGet);
            line += String.format(Locale.ROOT, " hybrisPutCpu=%.2f pairCpu=%.2f hybrisGetCpu=%.2f directGetCpu=%.2f"
                    + " directGetHashedCpu=%.2f", hPutCpu, pairCpu, hGetCpu, dGetCpu, dhGetCpu);
            System.out.println(line);
            results.add(line);
        }
        System.out.printf(Locale.ROOT, "# Hybris chunk/manifest PUTs per cloud: %s%n", hybrisPutsByCloud);
        System.out.println();
        printThroughput(results, size);
    }

    /** The CPU time this JVM has used (every thread, GC included). */
    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private double mibPerSecond(long nanos) {
        return size / (double) MiB / (nanos / 1e9);
    }

    // ------------------------------------------------------------------ heap

    private void heap(Hybris hybris, S3Client s3, BlobContainerClient azure) throws Exception {
        HeapSampler sampler = new HeapSampler();
        List<String> lines = new ArrayList<>();
        Map<String, Call> ops = new LinkedHashMap<>();
        ops.put("Hybris PUT", () -> hybrisPut(hybris, size));
        ops.put("direct PUT pair (S3 multipart + Azure blocks)", () -> direct.directPutPair(s3, azure, size));
        ops.put("Hybris GET", () -> hybrisGet(hybris));
        ops.put("direct S3 ranged GETs", () -> direct.directGet(s3, size, false));
        for (Map.Entry<String, Call> op : ops.entrySet()) {
            HeapSampler.Result r = sampler.measure(op.getValue());
            lines.add(String.format(Locale.ROOT, "| %s | %.1f | %.1f | **%.1f** | %.1f | %d | %+.1f |",
                    op.getKey(), r.baseline() / (double) MiB, r.highWater() / (double) MiB,
                    (r.highWater() - r.baseline()) / (double) MiB,
                    (r.anyGcHighWater() - r.baseline()) / (double) MiB, r.samples(),
                    (r.after() - r.baseline()) / (double) MiB));
        }
        sampler.close();
        System.out.printf(Locale.ROOT, "Live heap, MiB (after full GCs forced every %d ms during the operation,"
                + " from the GC notifications; baseline = least live heap of three full GCs just before it):%n%n",
                HeapSampler.PERIOD_MS);
        System.out.println("| operation | baseline | high-water | above baseline | above baseline, any GC "
                + "(upper bound) | full GCs sampled | at rest after it, minus baseline |");
        System.out.println("|---|---|---|---|---|---|---|");
        lines.forEach(System.out::println);
        System.out.println();
    }

    // ------------------------------------------------------------------ time to first byte

    private void ttfb(Hybris hybris, S3Client s3, MetadataStore rawStore) throws Exception {
        Random random = new Random(7);
        S3Object manifest = smallestObjectUnder(s3, prefix + "hybris/");
        String small = prefix + "direct/manifest-sized";
        s3.putObject(b -> b.bucket(BUCKET).key(small), RequestBody.fromBytes(ValuePattern.part(0,
                (int) (long) manifest.size())));
        ThroughputSeries rangeTtfb = new ThroughputSeries(), rangeAll = new ThroughputSeries(), openTtfb = new ThroughputSeries();
        ThroughputSeries directChunk = new ThroughputSeries(), directChunkTtfb = new ThroughputSeries(), directManifest = new ThroughputSeries();
        ThroughputSeries metadataRead = new ThroughputSeries(), directRangeTtfb = new ThroughputSeries();
        ThroughputSeries inManifest = new ThroughputSeries(), inChunk = new ThroughputSeries();
        Map<String, Integer> chunkClouds = new java.util.TreeMap<>();
        MetadataKey mk = new MetadataKey(CONTAINER, KEY);
        long span = size - MiB;
        for (int r = 0; r < ttfbRounds + 2; r++) {
            boolean keep = r >= 2;
            long off = (random.nextLong() & Long.MAX_VALUE) % span;
            byte[] buffer = new byte[BUFFER];
            // Hybris: a 1 MiB range at a random offset (one chunk, or two if it straddles a boundary)
            long t0 = System.nanoTime();
            try (ValueStream in = hybris.get(CONTAINER, KEY, ByteRange.of(off, off + MiB - 1)).orElseThrow()) {
                int n = in.read(buffer);
                long t1 = System.nanoTime();
                check(n > 0, "no first byte");
                long total = n + drain(in);
                check(total == MiB, "range length " + total);
                if (keep) {
                    rangeTtfb.add((t1 - t0) / 1e6);
                    rangeAll.add((System.nanoTime() - t0) / 1e6);
                    inManifest.add(counter.lastManifestGetMs);
                    inChunk.add(counter.lastChunkGetMs);
                    chunkClouds.merge(String.valueOf(counter.lastChunkCloud), 1, Integer::sum);
                }
            }
            // Hybris: from the same offset to the end (read-ahead starts), first byte only
            t0 = System.nanoTime();
            try (ValueStream in = hybris.get(CONTAINER, KEY, ByteRange.from(off)).orElseThrow()) {
                check(in.read() >= 0, "no first byte");
                if (keep) {
                    openTtfb.add((System.nanoTime() - t0) / 1e6);
                }
            }
            // the parts, directly: a metadata read, a manifest-sized GET, one chunk-sized GET
            t0 = System.nanoTime();
            rawStore.read(mk).orElseThrow();
            if (keep) {
                metadataRead.add((System.nanoTime() - t0) / 1e6);
            }
            t0 = System.nanoTime();
            try (InputStream in = s3.getObject(b -> b.bucket(BUCKET).key(small))) {
                drain(in);
            }
            if (keep) {
                directManifest.add((System.nanoTime() - t0) / 1e6);
            }
            long from = off / chunk * chunk;
            t0 = System.nanoTime();
            try (InputStream in = s3.getObject(b -> b.bucket(BUCKET).key(directName)
                    .range("bytes=" + from + "-" + (from + chunk - 1)))) {
                byte[] all = new byte[chunk];
                in.readNBytes(all, 0, chunk);
            }
            if (keep) {
                directChunk.add((System.nanoTime() - t0) / 1e6);
            }
            // the direct stream from the same offset to the end, first byte only
            t0 = System.nanoTime();
            try (InputStream in = direct.directGetStream(s3, off, size - off, false)) {
                check(in.read() >= 0, "no first byte");
                if (keep) {
                    directRangeTtfb.add((System.nanoTime() - t0) / 1e6);
                }
            }
        }
        double expected = metadataRead.median() + directManifest.median() + directChunk.median();
        System.out.printf(Locale.ROOT, "Time to first byte of range reads of the %d MiB value at random offsets, "
                + "ms, median [min - max] of %d rounds (manifest: %d bytes):%n%n", size / MiB, ttfbRounds,
                manifest.size());
        System.out.println("| what | ms |");
        System.out.println("|---|---|");
        System.out.printf(Locale.ROOT, "| Hybris: 1 MiB range, first byte | **%s** |%n", rangeTtfb);
        System.out.printf(Locale.ROOT, "| Hybris: 1 MiB range, all of it | %s |%n", rangeAll);
        System.out.printf(Locale.ROOT, "| inside it: the manifest's cloud GET (hash-checked) | %s |%n", inManifest);
        System.out.printf(Locale.ROOT, "| inside it: the (last) chunk's cloud GET (hash-checked; from %s) | %s |%n",
                chunkClouds, inChunk);
        System.out.printf(Locale.ROOT, "| Hybris: offset to end (read-ahead %d), first byte | **%s** |%n",
                readAhead, openTtfb);
        System.out.printf(Locale.ROOT, "| metadata read (%s store alone) | %s |%n", metadataKind, metadataRead);
        System.out.printf(Locale.ROOT, "| direct S3 GET, manifest-sized object | %s |%n", directManifest);
        System.out.printf(Locale.ROOT, "| direct S3 GET, one %d MiB chunk (range) | %s |%n", chunk / MiB,
                directChunk);
        System.out.printf(Locale.ROOT, "| expected: metadata read + manifest GET + chunk GET (medians) | %.1f |%n",
                expected);
        System.out.printf(Locale.ROOT, "| direct S3 ranged stream (%d ahead) from the offset, first byte | %s |%n",
                readAhead, directRangeTtfb);
        System.out.printf(Locale.ROOT, "| Hybris 1 MiB range TTFB / expected | **%.2f** |%n",
                rangeTtfb.median() / expected);
        System.out.printf(Locale.ROOT, "| Hybris offset-to-end TTFB / expected | **%.2f** |%n",
                openTtfb.median() / expected);
        System.out.println();
    }

    private S3Object smallestObjectUnder(S3Client s3, String under) {
        return s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(under)).contents().stream()
                .min(java.util.Comparator.comparingLong(S3Object::size)).orElseThrow();
    }

    // ------------------------------------------------------------------ clients

}
