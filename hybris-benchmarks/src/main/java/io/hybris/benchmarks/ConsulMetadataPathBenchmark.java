/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.rmds.consul.ConsulMetadataStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import org.kiwiproject.consul.Consul;
import org.kiwiproject.consul.KeyValueClient;
import org.kiwiproject.consul.model.kv.Value;
import org.kiwiproject.consul.option.ConsistencyMode;
import org.kiwiproject.consul.option.ImmutablePutOptions;
import org.kiwiproject.consul.option.ImmutableQueryOptions;
import org.kiwiproject.consul.option.QueryOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The metadata path of Hybris on Consul, side by side with raw consul-client doing the same Consul work on the same
 * dev agent in the same run:
 * <ul>
 *   <li>{@code hybrisGet} (metadata read in {@code consistent} mode + one in-memory cloud read + SHA-256) against
 *       {@code consulConsistentGet} (a KV get with {@code ?consistent});</li>
 *   <li>{@code hybrisPut} (metadata read, two in-memory cloud writes, check-and-set, background GC) against
 *       {@code consulReadCas} (a consistent KV get + {@code PUT ?cas=<ModifyIndex>});</li>
 *   <li>{@code storeRead} and {@code storeReadCas}: the same Consul work through {@link ConsulMetadataStore} alone,
 *       without the protocol, to separate the store's overhead from the protocol's.</li>
 * </ul>
 * Values are small ({@code valueBytes}) so the metadata path dominates. The agent is {@code consul agent -dev}
 * (in-memory Raft) on free loopback ports, started from the binary named by {@code -Dhybris.test.consul=...}
 * ({@code ./src/test/install-consul.sh} prints it):
 * <pre>
 * java -Dhybris.test.consul=$(./src/test/install-consul.sh) -jar hybris-benchmarks/target/benchmarks.jar \
 *     ConsulMetadataPathBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(3)
public class ConsulMetadataPathBenchmark {
    private static final int KEYS = 256;

    @Param({"1024"})
    public int valueBytes;

    private DevAgent agent;
    private Hybris hybris;
    private ConsulMetadataStore store;
    private Consul consul;
    private KeyValueClient kv;
    private QueryOptions consistent;
    private byte[] value;
    private final AtomicInteger next = new AtomicInteger();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        agent = DevAgent.start();
        value = new byte[valueBytes];
        hybris = Hybris.open(Hybris.builder()
                .f(1)
                .metadataStore("consul", Map.of("address", agent.address(), "key-prefix", "bench"))
                .cloud(new InMemoryCloudStore("m1"))
                .cloud(new InMemoryCloudStore("m2"))
                .cloud(new InMemoryCloudStore("m3"))
                .deadline(Duration.ofSeconds(30))
                .build());
        store = ConsulMetadataStore.builder().address(agent.address()).keyPrefix("bench").build();
        consul = Consul.builder().withUrl("http://" + agent.address()).build();
        kv = consul.keyValueClient();
        consistent = ImmutableQueryOptions.builder().consistencyMode(ConsistencyMode.CONSISTENT).build();
        for (int i = 0; i < KEYS; i++) {
            hybris.put("bench", "key-" + i, value);
            kv.putValue("raw/key-" + i, value, 0, ImmutablePutOptions.builder().cas(0L).build());
            store.conditionalUpdate(new MetadataUpdate(new MetadataKey("store", "key-" + i), value,
                    MetadataVersion.ABSENT));
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        hybris.close();
        store.close();
        consul.destroy();
        agent.close();
    }

    private int key() {
        return Math.floorMod(next.getAndIncrement(), KEYS);
    }

    @Benchmark
    public Optional<byte[]> hybrisGet() {
        return hybris.get("bench", "key-" + key());
    }

    @Benchmark
    public void hybrisPut() {
        hybris.put("bench", "key-" + key(), value);
    }

    /** The store alone, without the protocol around it: its overhead over raw consul-client. */
    @Benchmark
    public Optional<VersionedValue> storeRead() {
        return store.read(new MetadataKey("store", "key-" + key()));
    }

    @Benchmark
    public VersionedValue storeReadCas() throws VersionConflictException {
        MetadataKey k = new MetadataKey("store", "key-" + key());
        VersionedValue v = store.read(k).orElseThrow();
        store.conditionalUpdate(new MetadataUpdate(k, value, v.version()));
        return v;
    }

    @Benchmark
    public Optional<Value> consulConsistentGet() {
        return kv.getValue("raw/key-" + key(), consistent);
    }

    @Benchmark
    public boolean consulReadCas() {
        String k = "raw/key-" + key();
        Value v = kv.getValue(k, consistent).orElseThrow();
        return kv.putValue(k, value, 0, ImmutablePutOptions.builder().cas(v.getModifyIndex()).build());
    }

    /** {@code consul agent -dev} on free loopback ports, in a temporary directory; closing kills it. */
    static final class DevAgent implements AutoCloseable {
        private final Process process;
        private final Path dir;
        private final int httpPort;

        private DevAgent(Process process, Path dir, int httpPort) {
            this.process = process;
            this.dir = dir;
            this.httpPort = httpPort;
        }

        static DevAgent start() throws IOException, InterruptedException {
            String binary = System.getProperty("hybris.test.consul");
            if (binary == null || binary.isBlank() || !Files.isExecutable(Path.of(binary))) {
                throw new IllegalStateException("set -Dhybris.test.consul=<consul binary>, e.g. "
                        + "-Dhybris.test.consul=$(./src/test/install-consul.sh)");
            }
            int[] p = freePorts(5);
            Path dir = Files.createTempDirectory("consul-bench-");
            Path config = dir.resolve("agent.hcl");
            Files.writeString(config, """
                    bind_addr = "127.0.0.1"
                    client_addr = "127.0.0.1"
                    advertise_addr = "127.0.0.1"
                    log_level = "warn"
                    disable_update_check = true
                    ports {
                      http = %d
                      https = -1
                      dns = -1
                      grpc = -1
                      grpc_tls = -1
                      serf_lan = %d
                      serf_wan = %d
                      server = %d
                    }
                    """.formatted(p[0], p[1], p[2], p[3]), StandardCharsets.UTF_8);
            Process process = new ProcessBuilder(binary, "agent", "-dev", "-config-file=" + config)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("agent.log").toFile())
                    .start();
            DevAgent agent = new DevAgent(process, dir, p[0]);
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                try {
                    String leader = http.send(HttpRequest.newBuilder(URI.create("http://" + agent.address()
                            + "/v1/status/leader")).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
                    if (leader.trim().length() > 2) {
                        return agent;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    agent.close();
                    throw new IllegalStateException("Consul dev agent did not come up; see " + dir);
                }
                process.waitFor(100, TimeUnit.MILLISECONDS); // the poll interval; returns early if it exits
            }
        }

        String address() {
            return "127.0.0.1:" + httpPort;
        }

        @Override
        public void close() throws InterruptedException {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                // a temporary directory
            }
        }

        private static int[] freePorts(int n) throws IOException {
            List<ServerSocket> held = new ArrayList<>();
            try {
                int[] ports = new int[n];
                for (int i = 0; i < n; i++) {
                    ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                    held.add(s);
                    ports[i] = s.getLocalPort();
                }
                return ports;
            } finally {
                for (ServerSocket s : held) {
                    s.close();
                }
            }
        }
    }
}
