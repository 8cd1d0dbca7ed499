/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.specialized.BlockBlobClient;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.hybris.ByteRange;
import io.hybris.Hybris;
import io.hybris.HybrisListener;
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
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

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
    private static final String BUCKET = EmulatedClouds.BUCKET;
    private static final String CONTAINER = "large";
    private static final String KEY = "v";
    private static final int MiB = 1 << 20;
    private static final int BUFFER = MiB;

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
        new Run(TestEnvironment.load(Path.of(args[0])), o).run();
    }

    /** The value's bytes: position p holds PATTERN[p % PATTERN.length], so no two chunks are alike. */
    static final class Pattern {
        private static final byte[] PATTERN = new byte[16 * MiB + 4099];

        static {
            new Random(42).nextBytes(PATTERN);
        }

        /** Fills {@code dst[off, off+len)} with the value's bytes from position {@code pos}. */
        static void fill(byte[] dst, int off, int len, long pos) {
            while (len > 0) {
                int at = (int) (pos % PATTERN.length);
                int n = Math.min(len, PATTERN.length - at);
                System.arraycopy(PATTERN, at, dst, off, n);
                off += n;
                len -= n;
                pos += n;
            }
        }

        static byte[] part(long pos, int len) {
            byte[] b = new byte[len];
            fill(b, 0, len, pos);
            return b;
        }

        /** A stream of the value's first {@code length} bytes, made as it is read. */
        static InputStream stream(long length) {
            return new InputStream() {
                private long pos;

                @Override
                public int read() {
                    if (pos >= length) {
                        return -1;
                    }
                    return PATTERN[(int) (pos++ % PATTERN.length)] & 0xff;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (pos >= length) {
                        return -1;
                    }
                    int n = (int) Math.min(len, length - pos);
                    fill(b, off, n, pos);
                    pos += n;
                    return n;
                }
            };
        }

        /** Reads {@code in} to its end and checks every byte against the value's from {@code pos}. */
        static long verify(InputStream in, long pos) throws IOException {
            byte[] got = new byte[BUFFER];
            byte[] want = new byte[BUFFER];
            long total = 0;
            for (int n; (n = in.read(got)) > 0; ) {
                fill(want, 0, n, pos + total);
                if (!java.util.Arrays.equals(got, 0, n, want, 0, n)) {
                    throw new IllegalStateException("wrong bytes near offset " + (pos + total));
                }
                total += n;
            }
            return total;
        }
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

    private static void printThroughput(List<String> results, long size) {
        Map<String, Series> s = new LinkedHashMap<>();
        for (String line : results) {
            for (String kv : line.substring("RESULT ".length()).split(" ")) {
                String[] p = kv.split("=", 2);
                if (!p[0].equals("rep") && !p[0].equals("first")) {
                    s.computeIfAbsent(p[0], k -> new Series()).add(Double.parseDouble(p[1]));
                }
            }
        }
        if (s.isEmpty()) {
            return;
        }
        Series hPut = s.get("hybrisPut"), pair = s.get("pair"), s3 = s.get("s3"), az = s.get("azure");
        Series hGet = s.get("hybrisGet"), dGet = s.get("directGet"), dhGet = s.get("directGetHashed");
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

    private static final class Run {
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
        private final PutCounter counter = new PutCounter();
        private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "bench-direct");
            t.setDaemon(true);
            return t;
        });

        Run(TestEnvironment env, Map<String, String> o) {
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
            S3Client s3 = s3Client();
            BlobContainerClient azure = azureClient();
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
                    directPutPair(s3, azure, size);
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
            hybris.put(CONTAINER, KEY, Pattern.stream(size), size);
        }

        private long hybrisGet(Hybris hybris) throws IOException {
            try (ValueStream in = hybris.getStream(CONTAINER, KEY).orElseThrow()) {
                return drain(in);
            }
        }

        private static long drain(InputStream in) throws IOException {
            byte[] buffer = new byte[BUFFER];
            long total = 0;
            for (int n; (n = in.read(buffer)) > 0; ) {
                total += n;
            }
            return total;
        }

        /** Both direct uploads at once; returns {s3 seconds, azure seconds} (the pair takes the larger). */
        private double[] directPutPair(S3Client s3, BlobContainerClient azure, long size) {
            long t0 = System.nanoTime();
            CompletableFuture<Double> az = CompletableFuture.supplyAsync(() -> {
                azurePut(azure, size);
                return (System.nanoTime() - t0) / 1e9;
            }, pool);
            s3Put(s3, size);
            double s3Seconds = (System.nanoTime() - t0) / 1e9;
            return new double[] {s3Seconds, az.join()};
        }

        /** S3 multipart upload: chunk-sized parts, {@code parallel} in flight, read from the source in order. */
        private void s3Put(S3Client s3, long size) {
            String uploadId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(directName)).uploadId();
            ArrayDeque<Future<CompletedPart>> inFlight = new ArrayDeque<>();
            List<CompletedPart> parts = new ArrayList<>();
            InputStream source = Pattern.stream(size);
            try {
                for (int part = 1; ; part++) {
                    byte[] bytes = source.readNBytes(chunk);
                    if (bytes.length == 0) {
                        break;
                    }
                    while (inFlight.size() >= parallel) {
                        parts.add(inFlight.poll().get());
                    }
                    int number = part;
                    inFlight.add(pool.submit(() -> {
                        String etag = s3.uploadPart(b -> b.bucket(BUCKET).key(directName).uploadId(uploadId)
                                        .partNumber(number).contentLength((long) bytes.length),
                                RequestBody.fromContentProvider(ContentStreamProvider.fromByteArrayUnsafe(bytes),
                                        bytes.length, "application/octet-stream")).eTag();
                        return CompletedPart.builder().partNumber(number).eTag(etag).build();
                    }));
                    if (bytes.length < chunk) {
                        break;
                    }
                }
                while (!inFlight.isEmpty()) {
                    parts.add(inFlight.poll().get());
                }
                s3.completeMultipartUpload(b -> b.bucket(BUCKET).key(directName).uploadId(uploadId)
                        .multipartUpload(m -> m.parts(parts)));
            } catch (Exception e) {
                s3.abortMultipartUpload(b -> b.bucket(BUCKET).key(directName).uploadId(uploadId));
                throw new IllegalStateException("direct S3 multipart upload failed", e);
            }
        }

        /** Azure block blob: chunk-sized staged blocks, {@code parallel} in flight, then the block list. */
        private void azurePut(BlobContainerClient azure, long size) {
            BlockBlobClient blob = azure.getBlobClient(directName).getBlockBlobClient();
            ArrayDeque<Future<?>> inFlight = new ArrayDeque<>();
            List<String> ids = new ArrayList<>();
            InputStream source = Pattern.stream(size);
            try {
                for (int block = 0; ; block++) {
                    byte[] bytes = source.readNBytes(chunk);
                    if (bytes.length == 0) {
                        break;
                    }
                    while (inFlight.size() >= parallel) {
                        inFlight.poll().get();
                    }
                    String id = Base64.getEncoder().encodeToString(
                            String.format(Locale.ROOT, "block-%08d", block).getBytes(StandardCharsets.US_ASCII));
                    ids.add(id);
                    inFlight.add(pool.submit(() -> blob.stageBlock(id, BinaryData.fromBytes(bytes))));
                    if (bytes.length < chunk) {
                        break;
                    }
                }
                while (!inFlight.isEmpty()) {
                    inFlight.poll().get();
                }
                blob.commitBlockList(ids, true);
            } catch (Exception e) {
                throw new IllegalStateException("direct Azure block upload failed", e);
            }
        }

        /** The direct GET as a stream: chunk-sized ranged S3 GETs, {@code readAhead} ahead, read in order. */
        private InputStream directGetStream(S3Client s3, long first, long length, boolean hash) {
            return new InputStream() {
                private final ArrayDeque<Future<byte[]>> ahead = new ArrayDeque<>();
                private long nextOffset = first;
                private final long end = first + length;
                private byte[] current = new byte[0];
                private int pos;

                private void fill() {
                    while (ahead.size() < readAhead && nextOffset < end) {
                        long from = nextOffset;
                        long to = Math.min(end, (from / chunk + 1) * chunk) - 1;
                        nextOffset = to + 1;
                        ahead.add(pool.submit(() -> {
                            try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(BUCKET)
                                    .key(directName).range("bytes=" + from + "-" + to))) {
                                byte[] bytes = new byte[(int) (to - from + 1)];
                                java.security.MessageDigest sha = hash
                                        ? java.security.MessageDigest.getInstance("SHA-256") : null;
                                int n = 0;
                                while (n < bytes.length) { // 64 KiB at a time, as the drivers read
                                    int got = in.read(bytes, n, Math.min(64 << 10, bytes.length - n));
                                    if (got < 0) {
                                        throw new IOException("short range " + from + "-" + to + ": " + n);
                                    }
                                    if (sha != null) {
                                        sha.update(bytes, n, got); // hashed as the bytes arrive, as Hybris does
                                    }
                                    n += got;
                                }
                                if (sha != null) {
                                    sha.digest();
                                }
                                return bytes;
                            }
                        }));
                    }
                }

                @Override
                public int read() throws IOException {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    if (pos == current.length) {
                        fill();
                        Future<byte[]> next = ahead.poll();
                        if (next == null) {
                            return -1;
                        }
                        try {
                            current = next.get();
                        } catch (Exception e) {
                            throw new IOException(e);
                        }
                        pos = 0;
                        fill();
                    }
                    int n = Math.min(len, current.length - pos);
                    System.arraycopy(current, pos, b, off, n);
                    pos += n;
                    return n;
                }

                @Override
                public void close() {
                    ahead.forEach(f -> f.cancel(true));
                    ahead.clear();
                }
            };
        }

        private long directGet(S3Client s3, long size, boolean hash) throws IOException {
            try (InputStream in = directGetStream(s3, 0, size, hash)) {
                return drain(in);
            }
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
                long n = Pattern.verify(in, 0);
                check(n == size, "Hybris GET returned " + n + " bytes");
            }
            counter.reset();
            hybrisGet(hybris);
            System.out.printf(Locale.ROOT, "# warm-up: Hybris GET read chunks from %s%n", counter.describeGets());
            directPutPair(s3, azure, size);
            try (InputStream in = directGetStream(s3, 0, size, true)) {
                check(Pattern.verify(in, 0) == size, "direct GET length");
            }
            directGet(s3, size, false);
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
                        each = directPutPair(s3, azure, size);
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
                        check(directGet(s3, size, false) == size, "direct GET length");
                        dGet = mibPerSecond(System.nanoTime() - t0);
                        dGetCpu = (cpuNanos() - c0) / 1e9;
                    } else {
                        check(directGet(s3, size, true) == size, "direct GET length");
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
            ops.put("direct PUT pair (S3 multipart + Azure blocks)", () -> directPutPair(s3, azure, size));
            ops.put("Hybris GET", () -> hybrisGet(hybris));
            ops.put("direct S3 ranged GETs", () -> directGet(s3, size, false));
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
            s3.putObject(b -> b.bucket(BUCKET).key(small), RequestBody.fromBytes(Pattern.part(0,
                    (int) (long) manifest.size())));
            Series rangeTtfb = new Series(), rangeAll = new Series(), openTtfb = new Series();
            Series directChunk = new Series(), directChunkTtfb = new Series(), directManifest = new Series();
            Series metadataRead = new Series(), directRangeTtfb = new Series();
            Series inManifest = new Series(), inChunk = new Series();
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
                try (InputStream in = directGetStream(s3, off, size - off, false)) {
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

        private S3Client s3Client() {
            return S3Client.builder()
                    .httpClient(Apache5HttpClient.builder().expectContinueEnabled(false).build())
                    .endpointOverride(env.minioProxy())
                    .region(Region.US_EAST_1)
                    .forcePathStyle(true)
                    .credentialsProvider(StaticCredentialsProvider.create(
                            AwsBasicCredentials.create(env.minioAccessKey(), env.minioSecretKey())))
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                    .build();
        }

        private BlobContainerClient azureClient() {
            return new BlobContainerClientBuilder()
                    .httpClient(new JdkHttpClientBuilder().build())
                    .endpoint(env.azuriteProxy().toString())
                    .credential(new StorageSharedKeyCredential(env.azuriteAccount(), env.azuriteKey()))
                    .containerName(BUCKET)
                    .buildClient();
        }
    }

    @FunctionalInterface
    private interface Call {
        void run() throws Exception;
    }

    /** Counts Hybris's successful cloud PUTs and GETs per cloud. */
    private static final class PutCounter implements HybrisListener {
        final Map<String, AtomicLong> puts = new ConcurrentHashMap<>();
        final Map<String, AtomicLong> gets = new ConcurrentHashMap<>();
        final Map<String, AtomicLong> otherOutcomes = new ConcurrentHashMap<>();
        final List<Double> getMs = java.util.Collections.synchronizedList(new ArrayList<>());
        final List<Double> putMs = java.util.Collections.synchronizedList(new ArrayList<>());
        volatile double lastManifestGetMs;
        volatile double lastChunkGetMs;
        volatile String lastChunkCloud;

        void reset() {
            puts.clear();
            gets.clear();
            otherOutcomes.clear();
            getMs.clear();
            putMs.clear();
        }

        /** Per-cloud counts, other outcomes and the median request time of the cloud GETs and PUTs since reset. */
        String diagnostics() {
            Series g = new Series(), p = new Series();
            new ArrayList<>(getMs).forEach(g::add);
            new ArrayList<>(putMs).forEach(p::add);
            return String.format(Locale.ROOT, "GETs %s, PUTs %s, other outcomes %s; cloud request ms: GET %s, PUT %s",
                    new java.util.TreeMap<>(gets), new java.util.TreeMap<>(puts), new java.util.TreeMap<>(otherOutcomes),
                    getMs.isEmpty() ? "-" : g, putMs.isEmpty() ? "-" : p);
        }

        @Override
        public void cloudOperation(String cloudId, CloudOperation operation, String objectKey, Outcome outcome,
                                   Duration latency) {
            if (outcome != Outcome.OK) {
                otherOutcomes.computeIfAbsent(cloudId + " " + operation + " " + outcome, k -> new AtomicLong())
                        .incrementAndGet();
                return;
            }
            if (operation == CloudOperation.PUT) {
                puts.computeIfAbsent(cloudId, k -> new AtomicLong()).incrementAndGet();
                putMs.add(latency.toNanos() / 1e6);
            } else if (operation == CloudOperation.GET) {
                gets.computeIfAbsent(cloudId, k -> new AtomicLong()).incrementAndGet();
                getMs.add(latency.toNanos() / 1e6);
                if (objectKey.contains("#c")) {
                    lastChunkGetMs = latency.toNanos() / 1e6;
                    lastChunkCloud = cloudId;
                } else {
                    lastManifestGetMs = latency.toNanos() / 1e6;
                }
            }
        }

        String describe() {
            return new java.util.TreeMap<>(puts).toString();
        }

        String describeGets() {
            return new java.util.TreeMap<>(gets).toString();
        }
    }

    /**
     * The live heap while an operation runs: a full GC every {@link #PERIOD_MS} ms, and the heap in use after each
     * GC as the GC notifications report it.
     */
    private static final class HeapSampler implements NotificationListener, AutoCloseable {
        static final int PERIOD_MS = 100;

        record Result(long baseline, long highWater, long anyGcHighWater, int samples, long after) {
        }

        private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
                .collect(Collectors.toSet());
        private final List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
        private final AtomicLong fullGcs = new AtomicLong();
        private volatile long lastFull;
        private volatile long maxFull;
        private volatile long maxAny;

        HeapSampler() {
            for (GarbageCollectorMXBean gc : gcs) {
                ((NotificationEmitter) gc).addNotificationListener(this, null, null);
            }
        }

        @Override
        public void handleNotification(Notification n, Object handback) {
            if (!n.getType().equals(com.sun.management.GarbageCollectionNotificationInfo
                    .GARBAGE_COLLECTION_NOTIFICATION)) {
                return;
            }
            com.sun.management.GarbageCollectionNotificationInfo info = com.sun.management
                    .GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            long used = 0;
            for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                if (heapPools.contains(e.getKey())) {
                    used += e.getValue().getUsed();
                }
            }
            synchronized (this) {
                maxAny = Math.max(maxAny, used);
                if ("System.gc()".equals(info.getGcCause())) {
                    lastFull = used;
                    maxFull = Math.max(maxFull, used);
                    fullGcs.incrementAndGet();
                    notifyAll();
                }
            }
        }

        /** A full GC, waiting for its notification; returns the live heap after it. */
        private long fullGc() throws InterruptedException {
            long before = fullGcs.get();
            System.gc();
            synchronized (this) {
                long until = System.nanoTime() + 5_000_000_000L;
                while (fullGcs.get() == before && System.nanoTime() < until) {
                    wait(100);
                }
                return lastFull;
            }
        }

        Result measure(Call op) throws Exception {
            long baseline = atRest();
            synchronized (this) {
                maxFull = baseline;
                maxAny = baseline;
            }
            long count0 = fullGcs.get();
            Thread forcer = new Thread(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        Thread.sleep(PERIOD_MS);
                        System.gc();
                    }
                } catch (InterruptedException e) {
                    // done
                }
            }, "bench-gc-forcer");
            forcer.setDaemon(true);
            forcer.start();
            try {
                op.run();
            } finally {
                forcer.interrupt();
                forcer.join();
            }
            Thread.sleep(200); // let the last notifications arrive
            long highWater;
            long any;
            int samples;
            synchronized (this) {
                highWater = maxFull;
                any = maxAny;
                samples = (int) (fullGcs.get() - count0);
            }
            return new Result(baseline, highWater, any, samples, atRest());
        }

        /**
         * The live heap at rest: the least of three full GCs, after the previous operation's background work (the
         * old version's deletion) has had half a second to settle.
         */
        private long atRest() throws InterruptedException {
            Thread.sleep(500);
            long least = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                least = Math.min(least, fullGc());
                Thread.sleep(100);
            }
            return least;
        }

        @Override
        public void close() throws Exception {
            for (GarbageCollectorMXBean gc : gcs) {
                ((NotificationEmitter) gc).removeNotificationListener(this);
            }
        }
    }

    /** Throughputs (or latencies) of one series. */
    private static final class Series {
        private final List<Double> values = new ArrayList<>();

        void add(double v) {
            values.add(v);
        }

        double last() {
            return values.get(values.size() - 1);
        }

        double percentile(double p) {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }

        double median() {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = sorted.length;
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }

        @Override
        public String toString() {
            double min = values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
            double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
            return String.format(Locale.ROOT, "%.1f [%.1f - %.1f]", median(), min, max);
        }
    }
}
