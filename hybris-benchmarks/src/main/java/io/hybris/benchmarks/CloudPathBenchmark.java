/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.hybris.Hybris;
import io.hybris.HybrisListener;
import io.hybris.ReadSettings;
import io.hybris.benchmarks.TimedStores.TimedCloudStore;
import io.hybris.benchmarks.TimedStores.TimedMetadataStore;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;
import io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.EmulatedClouds.Kind;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.Toxiproxy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Issue 3's cloud-path benchmark: on the three emulators behind toxiproxy with injected latencies, the provider
 * SDKs' direct GET and PUT on each cloud, raw Curator's metadata read ({@code sync} + {@code getData}) and CAS
 * ({@code setData} with version) on the same in-process ZooKeeper, and Hybris GET and PUT (f=1), for several
 * value sizes, interleaved round by round so drift hits every series alike. Prints medians and p99s and the
 * ratios against the paper's expectations (§5.1): GET follows the fastest cloud plus one metadata read; PUT
 * follows the second-fastest cloud plus one metadata read and one CAS. Every GET series (direct, metadata,
 * driver, Hybris) is timed twice per round in the same way: its first call after the other clients' work, then
 * a warm call right after it.
 *
 * <p>Usage: {@code CloudPathBenchmark <endpoints.properties> [s3-ms azure-ms gcs-ms] [sizes-in-KiB...]}; see
 * {@code bench/cloud-path.sh}.
 */
public final class CloudPathBenchmark {
    private static final String BUCKET = EmulatedClouds.BUCKET;

    private CloudPathBenchmark() {
    }

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: CloudPathBenchmark <endpoints.properties> [s3-ms azure-ms gcs-ms] [KiB ...]");
            System.exit(2);
        }
        TestEnvironment env = TestEnvironment.load(Path.of(args[0]));
        int[] latencies = args.length >= 4
                ? new int[] {Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3])}
                : new int[] {10, 30, 60};
        List<Integer> sizesKiB = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            sizesKiB.add(Integer.parseInt(args[i]));
        }
        if (sizesKiB.isEmpty()) {
            sizesKiB = List.of(100, 1024, 10240);
        }
        new Run(env, latencies).run(sizesKiB);
    }

    /**
     * Each connection's download rate through toxiproxy in KB/s, 0 for none ({@code hybris.bench.bandwidth-kbps},
     * {@code BANDWIDTH_KBPS} in bench/cloud-path.sh): a cloud's per-connection throughput, as on real links.
     */
    private static final long BANDWIDTH_KBPS = Long.getLong("hybris.bench.bandwidth-kbps", 0);

    private static final class Run {
        private final TestEnvironment env;
        private final int[] latencies;
        private final EmulatedClouds clouds;
        private final String prefix = "bench-" + UUID.randomUUID() + "/";
        private final List<CloudStore> drivers = new ArrayList<>();
        private final List<String> diagnostics = new ArrayList<>();
        private final List<String> pairLines = new ArrayList<>();
        private final List<String> sequenceLines = new ArrayList<>();
        private final GetLatencies getLatencies = new GetLatencies();
        private TimedMetadataStore timedStore;
        private TimedCloudStore timedS3;
        private final java.util.concurrent.ExecutorService parallel =
                java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "bench-parallel-put");
                    t.setDaemon(true);
                    return t;
                });

        Run(TestEnvironment env, int[] latencies) {
            this.env = env;
            this.latencies = latencies;
            this.clouds = new EmulatedClouds(env);
        }

        /**
         * Runs Hybris's own code (not the SDKs', which both sides share) until the JIT has compiled it, as JMH's
         * warm-up would: a few rounds against emulators reach steady state for the network, not for the JIT.
         */
        private static void warmUpTheJit() {
            try (Hybris warm = Hybris.open(Hybris.builder().f(1).metadataStore(new InMemoryMetadataStore())
                    .cloud(new InMemoryCloudStore("w1")).cloud(new InMemoryCloudStore("w2"))
                    .cloud(new InMemoryCloudStore("w3")).probeInterval(Duration.ZERO).build())) {
                byte[] value = new byte[100 << 10];
                for (int i = 0; i < 16; i++) {
                    warm.put("warm", "k" + i, value);
                }
                for (int i = 0; i < 20_000; i++) {
                    if (i % 8 == 0) {
                        warm.put("warm", "k" + (i % 16), value);
                    }
                    warm.get("warm", "k" + (i % 16));
                }
            }
        }

        void run(List<Integer> sizesKiB) throws Exception {
            warmUpTheJit();
            Map<Kind, Toxiproxy.Proxy> proxies = new LinkedHashMap<>();
            Kind[] kinds = Kind.values();
            for (int i = 0; i < kinds.length; i++) {
                proxies.put(kinds[i], clouds.proxy(kinds[i]).latency(Duration.ofMillis(latencies[i]))
                        .bandwidth(BANDWIDTH_KBPS));
            }
            Path zkDir = Files.createTempDirectory("hybris-bench-zk");
            S3Client s3 = s3Client();
            BlobContainerClient azure = azureClient();
            Storage gcs = gcsClient();
            S3Client s3Pipelined = s3Client();
            S3Client s3Alongside = s3Client();
            try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(zkDir, 0);
                 CuratorFramework curator = CuratorFrameworkFactory.newClient(zk.connectString(),
                         new RetryNTimes(3, 100));
                 CuratorFramework curatorPipelined = CuratorFrameworkFactory.newClient(zk.connectString(),
                         new RetryNTimes(3, 100));
                 CuratorFramework curatorAlongside = CuratorFrameworkFactory.newClient(zk.connectString(),
                         new RetryNTimes(3, 100));
                 CloudStore s3Driver = clouds.store("s3", Kind.S3, prefix + "drivers/");
                 CloudStore azureDriver = clouds.store("azure", Kind.AZURE, prefix + "drivers/");
                 CloudStore gcsDriver = clouds.store("gcs", Kind.GCS, prefix + "drivers/");
                 Hybris hybris = Hybris.open(Hybris.builder().f(1)
                         .metadataStore(timedStore = new TimedMetadataStore(ZooKeeperMetadataStore.builder()
                                 .connect(zk.connectString()).root("/bench").build()))
                         .listener(getLatencies)
                         .cloud(timedS3 = new TimedCloudStore(clouds.store("s3", Kind.S3, prefix)))
                         .cloud(clouds.store("azure", Kind.AZURE, prefix))
                         .cloud(clouds.store("gcs", Kind.GCS, prefix))
                         .probeInterval(Duration.ZERO)
                         .deadline(Duration.ofSeconds(120))
                         .build())) {
                for (CuratorFramework c : List.of(curator, curatorPipelined, curatorAlongside)) {
                    c.start();
                    c.blockUntilConnected();
                }
                // the pipelined and the alongside baselines each on clients of their own, used by nothing else: their
                // first GET of a round then follows a round of idle connections, as Hybris's does (on the clients
                // the other raw series share, it followed the previous series' GET by microseconds)
                RawClients pipelined = new RawClients(curatorPipelined, s3Pipelined);
                RawClients alongside = new RawClients(curatorAlongside, s3Alongside);
                drivers.addAll(List.of(s3Driver, azureDriver, gcsDriver));
                System.out.printf(Locale.ROOT, "# injected latency per response: s3 %d ms, azure %d ms, gcs %d ms%s%n",
                        latencies[0], latencies[1], latencies[2], BANDWIDTH_KBPS > 0
                                ? "; each connection's responses limited to " + BANDWIDTH_KBPS + " KB/s" : "");
                System.out.println("| value | op | s3 direct | azure direct | gcs direct | metadata | Hybris | "
                        + "expected (paper §5.1) | Hybris / expected |");
                System.out.println("|---|---|---|---|---|---|---|---|---|");
                try (Hybris guessing = otherClient("reader-a", zk.connectString(), true);
                     Hybris plain = otherClient("reader-b", zk.connectString(), false)) {
                    for (int kib : sizesKiB) {
                        measure(kib, hybris, new Readers(guessing, plain), curator, s3, azure, gcs, pipelined,
                                alongside);
                    }
                }
                System.out.println();
                System.out.println("GET against its raw equivalent: raw Curator's metadata read (sync, then getData), "
                        + "or the raw ZooKeeper read pipelined (sync and getData back to back), then the S3 SDK's "
                        + "direct GET, timed as one call; or the pipelined read with the S3 GET started alongside it "
                        + "(the object name known beforehand, as Hybris's speculative read knows the version it saw "
                        + "last: the fair baseline while hybris.get.speculate is on):");
                System.out.println("| value | call | sync, getData + s3 GET | pipelined read + s3 GET "
                        + "| pipelined read alongside s3 GET | Hybris GET | Hybris / raw | Hybris / raw pipelined "
                        + "| Hybris / raw alongside |");
                System.out.println("|---|---|---|---|---|---|---|---|---|");
                sequenceLines.forEach(System.out::println);
                System.out.println();
                System.out.println("PUT against both fastest clouds' direct uploads run in parallel (s3 + azure), plus "
                        + "one metadata read and one CAS (separately timed, added up; and done by the raw clients in "
                        + "sequence, timed as one call):");
                System.out.println("| value | s3 + azure direct in parallel | expected | Hybris / expected "
                        + "| metadata read + both uploads + CAS | Hybris PUT | Hybris / raw |");
                System.out.println("|---|---|---|---|---|---|---|");
                pairLines.forEach(System.out::println);
                System.out.println();
                diagnostics.forEach(System.out::println);
            } finally {
                s3.close();
                s3Pipelined.close();
                s3Alongside.close();
                proxies.values().forEach(Toxiproxy.Proxy::reset);
            }
        }

        /**
         * Two other clients of the deployment, reading what the measured client wrote (so a chunked value's
         * manifest is not in their memory): with {@code hybris.get.speculate} on and off.
         */
        private record Readers(Hybris guessing, Hybris plain) {
        }

        /** Another client of the deployment the measured client writes to, as it is configured but for its reads. */
        private Hybris otherClient(String clientId, String connectString, boolean speculate) {
            return Hybris.open(Hybris.builder().f(1).clientId(clientId)
                    .metadataStore(ZooKeeperMetadataStore.builder().connect(connectString).root("/bench").build())
                    .cloud(clouds.store("s3", Kind.S3, prefix)).cloud(clouds.store("azure", Kind.AZURE, prefix))
                    .cloud(clouds.store("gcs", Kind.GCS, prefix)).probeInterval(Duration.ZERO)
                    .deadline(Duration.ofSeconds(120))
                    .reads(ReadSettings.builder().speculate(speculate).build()).build());
        }

        /** A raw metadata client and S3 client used by one GET series alone. */
        private record RawClients(CuratorFramework curator, S3Client s3) {
        }

        private void measure(int kib, Hybris hybris, Readers readers, CuratorFramework curator, S3Client s3,
                             BlobContainerClient azure, Storage gcs, RawClients pipelined, RawClients alongside)
                throws Exception {
            byte[] value = new byte[kib << 10];
            new Random(kib).nextBytes(value);
            int rounds = kib >= 8192 ? 20 : kib >= 1024 ? 40 : 60;
            int warmup = 5;
            String name = prefix + "direct/" + kib;
            String zkPath = "/raw/" + kib;
            curator.create().creatingParentsIfNeeded().forPath(zkPath, new byte[49]);
            hybris.put("bench", "v" + kib, value);
            Series s3Put = new Series(), azPut = new Series(), gcsPut = new Series(), mdCas = new Series();
            Series hPut = new Series(), pairPut = new Series(), sequencePut = new Series();
            Gets s3Get = new Gets(), azGet = new Gets(), gcsGet = new Gets(), mdRead = new Gets(), hGet = new Gets();
            Gets sequenceGet = new Gets(), pipelinedSequenceGet = new Gets(), overlappedGet = new Gets();
            Gets otherGuessing = new Gets(), otherPlain = new Gets();
            Series inHybrisMetadata = new Series(), inHybrisDriver = new Series();
            Series inHybrisCloudRequest = new Series();
            Map<String, Series> driverPut = new LinkedHashMap<>();
            Map<String, Gets> driverGet = new LinkedHashMap<>();
            for (CloudStore d : drivers) {
                driverPut.put(d.id(), new Series());
                driverGet.put(d.id(), new Gets());
            }
            for (int r = 0; r < warmup + rounds; r++) {
                boolean keep = r >= warmup;
                time(keep, s3Put, () -> s3.putObject(b -> b.bucket(BUCKET).key(name), RequestBody.fromBytes(value)));
                time(keep, azPut, () -> azure.getBlobClient(name).upload(BinaryData.fromBytes(value), true));
                time(keep, gcsPut, () -> gcs.create(BlobInfo.newBuilder(BUCKET, name).build(), value));
                // what Hybris's PUT waits for: both fastest clouds' uploads at once, sharing this machine's cores
                time(keep, pairPut, () -> {
                    CompletableFuture<Void> az = CompletableFuture.runAsync(
                            () -> azure.getBlobClient(name).upload(BinaryData.fromBytes(value), true), parallel);
                    s3.putObject(b -> b.bucket(BUCKET).key(name), RequestBody.fromBytes(value));
                    az.join();
                });
                Stat stat = new Stat();
                curator.getData().storingStatIn(stat).forPath(zkPath);
                time(keep, mdCas, () -> curator.setData().withVersion(stat.getVersion()).forPath(zkPath, new byte[49]));
                // what Hybris's PUT does, with the raw clients: metadata read, both uploads at once, CAS
                time(keep, sequencePut, () -> {
                    Stat read = new Stat();
                    syncAndWait(curator, zkPath);
                    curator.getData().storingStatIn(read).forPath(zkPath);
                    CompletableFuture<Void> az = CompletableFuture.runAsync(
                            () -> azure.getBlobClient(name).upload(BinaryData.fromBytes(value), true), parallel);
                    s3.putObject(b -> b.bucket(BUCKET).key(name), RequestBody.fromBytes(value));
                    az.join();
                    curator.setData().withVersion(read.getVersion()).forPath(zkPath, new byte[49]);
                });
                String driverKey = "driver/" + kib;
                for (CloudStore d : drivers) {
                    time(keep, driverPut.get(d.id()), () -> d.put(driverKey, value));
                }
                // Every GET series is timed the same way: the first call after the other clients' work, then a
                // second call right after it (a busy client's warm connection). For Hybris and the pipelined and
                // alongside baselines, each on clients of its own, the first call's connections have been idle for
                // a round (a client's first request after a pause); the other series share their clients, whose
                // connections the series before used last. Hybris GETs come before this round's Hybris
                // PUT, so no background delete of a replaced version competes with them, as none does with the
                // direct GETs.
                // what Hybris's GET does, with the raw clients: the metadata read, then the fastest cloud's GET
                gets(keep, sequenceGet, () -> {
                    syncAndWait(curator, zkPath);
                    curator.getData().forPath(zkPath);
                    s3Get(s3, name);
                });
                // the same with the metadata read in one round trip (sync and getData back to back), as
                // Hybris's ZooKeeper store does it
                gets(keep, pipelinedSequenceGet, () -> {
                    pipelinedSyncRead(pipelined.curator(), zkPath);
                    s3Get(pipelined.s3(), name);
                });
                // the same with the S3 GET started alongside the read, its object name known beforehand: what
                // Hybris's speculative read (hybris.get.speculate) does for a version it saw last
                gets(keep, overlappedGet, () -> {
                    CompletableFuture<byte[]> body = CompletableFuture.supplyAsync(() -> {
                        try {
                            return s3Get(alongside.s3(), name);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }, parallel);
                    pipelinedSyncRead(alongside.curator(), zkPath);
                    body.join();
                });
                gets(keep, s3Get, () -> s3Get(s3, name));
                gets(keep, azGet, () -> azure.getBlobClient(name).downloadContent().toBytes());
                gets(keep, gcsGet, () -> gcs.readAllBytes(BlobId.of(BUCKET, name)));
                gets(keep, mdRead, () -> {
                    syncAndWait(curator, zkPath);
                    curator.getData().forPath(zkPath);
                });
                for (CloudStore d : drivers) {
                    gets(keep, driverGet.get(d.id()), () -> d.get(driverKey, value.length).orElseThrow());
                }
                gets(keep, hGet, () -> {
                    byte[] back = hybris.get("bench", "v" + kib).orElseThrow();
                    if (back.length != value.length) {
                        throw new IllegalStateException("Hybris returned " + back.length + " bytes");
                    }
                });
                // the version just read, by the clients that did not write it: their first call reads a chunked
                // value's manifest from a cloud (the second finds it in memory); in turns, so neither always goes first
                Gets firstOther = r % 2 == 0 ? otherGuessing : otherPlain;
                Gets secondOther = r % 2 == 0 ? otherPlain : otherGuessing;
                gets(keep, firstOther, () -> readWhole(firstOther == otherGuessing ? readers.guessing()
                        : readers.plain(), kib, value.length));
                gets(keep, secondOther, () -> readWhole(secondOther == otherGuessing ? readers.guessing()
                        : readers.plain(), kib, value.length));
                if (keep) { // the parts of the warm Hybris GET just timed
                    inHybrisMetadata.add(timedStore.lastReadMs);
                    inHybrisDriver.add(timedS3.lastGetMs);
                    inHybrisCloudRequest.add(getLatencies.lastMs);
                }
                time(keep, hPut, () -> hybris.put("bench", "v" + kib, value));
            }
            double[] directPut = {s3Put.median(), azPut.median(), gcsPut.median()};
            double[] sortedPut = directPut.clone();
            Arrays.sort(sortedPut);
            double expectedPut = sortedPut[1] + mdRead.warm.median() + mdCas.median();
            double expectedPairPut = pairPut.median() + mdRead.warm.median() + mdCas.median();
            String size = kib >= 1024 ? (kib / 1024) + " MiB" : kib + " KiB";
            for (boolean warm : new boolean[] {false, true}) {
                Series[] direct = {s3Get.of(warm), azGet.of(warm), gcsGet.of(warm)};
                double expectedGet = Arrays.stream(direct).mapToDouble(Series::median).min().orElseThrow()
                        + mdRead.of(warm).median();
                System.out.printf(Locale.ROOT, "| %s | GET (%s) | %s | %s | %s | %s | %s | %.1f | %.2f |%n", size,
                        warm ? "warm" : "first", direct[0], direct[1], direct[2], mdRead.of(warm), hGet.of(warm),
                        expectedGet, hGet.of(warm).median() / expectedGet);
            }
            System.out.printf(Locale.ROOT, "| %s | PUT | %s | %s | %s | %s | %s | %.1f | %.2f |%n", size,
                    s3Put, azPut, gcsPut, mdRead.warm + " + " + mdCas, hPut, expectedPut, hPut.median() / expectedPut);
            for (boolean warm : new boolean[] {false, true}) {
                sequenceLines.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %.2f | %.2f | %.2f |",
                        size, warm ? "warm" : "first", sequenceGet.of(warm), pipelinedSequenceGet.of(warm),
                        overlappedGet.of(warm), hGet.of(warm), hGet.of(warm).median() / sequenceGet.of(warm).median(),
                        hGet.of(warm).median() / pipelinedSequenceGet.of(warm).median(),
                        hGet.of(warm).median() / overlappedGet.of(warm).median()));
            }
            pairLines.add(String.format(Locale.ROOT, "| %s | %s | %.1f | %.2f | %s | %s | %.2f |", size, pairPut,
                    expectedPairPut, hPut.median() / expectedPairPut, sequencePut, hPut,
                    hPut.median() / sequencePut.median()));
            StringBuilder drv = new StringBuilder("#   " + size + " through the Hybris drivers alone (median / p99 ms):");
            for (CloudStore d : drivers) {
                drv.append(' ').append(d.id()).append(" GET first ").append(driverGet.get(d.id()).first)
                        .append(", warm ").append(driverGet.get(d.id()).warm)
                        .append(", PUT ").append(driverPut.get(d.id())).append(';');
            }
            diagnostics.add(drv.toString());
            diagnostics.add(String.format(Locale.ROOT, "#   %s GET of it by another client (first / warm), "
                    + "hybris.get.speculate on: %s / %s; off: %s / %s; pipelined read + s3 GET: %s / %s", size,
                    otherGuessing.first, otherGuessing.warm, otherPlain.first, otherPlain.warm,
                    pipelinedSequenceGet.first, pipelinedSequenceGet.warm));
            diagnostics.add(String.format(Locale.ROOT, "#   %s warm Hybris GET %s, of which (median / p99 ms): metadata "
                    + "read in the store %s; S3 driver GET, hashing as bytes arrive %s; cloud request (+ hash check) %s", size,
                    hGet.warm, inHybrisMetadata, inHybrisDriver, inHybrisCloudRequest));
            System.out.flush();
        }

        private static void readWhole(Hybris client, int kib, int length) {
            byte[] back = client.get("bench", "v" + kib).orElseThrow();
            if (back.length != length) {
                throw new IllegalStateException("Hybris returned " + back.length + " bytes");
            }
        }

        private static void pipelinedSyncRead(CuratorFramework curator, String path) throws Exception {
            ZooKeeper zk = curator.getZookeeperClient().getZooKeeper();
            CompletableFuture<Integer> synced = new CompletableFuture<>();
            zk.sync(path, (rc, p, ctx) -> synced.complete(rc), null);
            zk.getData(path, false, new Stat());
            if (synced.get(10, TimeUnit.SECONDS) != KeeperException.Code.OK.intValue()) {
                throw new IllegalStateException("sync of " + path + " failed");
            }
        }

        private static void syncAndWait(CuratorFramework curator, String path) throws Exception {
            CompletableFuture<Void> synced = new CompletableFuture<>();
            curator.sync().inBackground((c, event) -> synced.complete(null)).forPath(path);
            synced.get(10, TimeUnit.SECONDS);
        }

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

        private Storage gcsClient() {
            return StorageOptions.http().setHost(env.gcsProxy().toString()).setProjectId(env.gcsProject())
                    .setCredentials(NoCredentials.getInstance()).build().getService();
        }
    }

    /** The latency of the last successful cloud GET Hybris reported. */
    private static final class GetLatencies implements HybrisListener {
        volatile double lastMs;

        @Override
        public void cloudOperation(String cloudId, CloudOperation operation, String objectKey, Outcome outcome,
                                   Duration latency) {
            if (operation == CloudOperation.GET && outcome == Outcome.OK) {
                lastMs = latency.toNanos() / 1e6;
            }
        }
    }

    /** Times each GET of the cloud below (the form Hybris calls, which hashes the bytes as they arrive). */
    /**
     * The S3 SDK's direct GET read the way our driver reads: the body, of the length the response announces, into
     * one array of that size ({@code getObjectAsBytes} grows a buffer and then copies it, 10 MiB at a time).
     */
    private static byte[] s3Get(S3Client s3, String key) throws IOException {
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(BUCKET).key(key))) {
            long length = in.response().contentLength();
            byte[] out = new byte[Math.toIntExact(length)];
            int n = in.readNBytes(out, 0, out.length);
            if (n != length || in.read() != -1) {
                throw new IllegalStateException("S3 sent " + n + " bytes of " + key + ", announced " + length);
            }
            return out;
        }
    }

    @FunctionalInterface
    private interface Call {
        void run() throws Exception;
    }

    private static void time(boolean keep, Series series, Call call) throws Exception {
        long t0 = System.nanoTime();
        call.run();
        if (keep) {
            series.add((System.nanoTime() - t0) / 1e6);
        }
    }

    /** Times two calls in a row: the first after other clients' work, the second right after it. */
    private static void gets(boolean keep, Gets gets, Call call) throws Exception {
        time(keep, gets.first, call);
        time(keep, gets.warm, call);
    }

    /** A GET series: the first call of a round and the warm call right after it. */
    private static final class Gets {
        final Series first = new Series();
        final Series warm = new Series();

        Series of(boolean warmCall) {
            return warmCall ? warm : first;
        }
    }

    /** Latencies of one operation in milliseconds. */
    private static final class Series {
        private final List<Double> ms = new ArrayList<>();

        void add(double v) {
            ms.add(v);
        }

        double median() {
            return percentile(50);
        }

        double percentile(double p) {
            double[] sorted = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.1f / %.1f", median(), percentile(99));
        }
    }
}
