/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ErasurePolicy;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
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

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * End-to-end PUT and GET latency, replication ({@code f+1 = 2} copies) against erasure coding ({@code k=2, f=1}:
 * three half-size chunks), on three emulated clouds: in-memory stores behind a fixed per-request latency plus a
 * per-connection bandwidth ({@link EmulatedCloud}: 20 ms + bytes at 50 MB/s, the shape of a WAN link to a public
 * cloud, scaled down). Erasure coding moves half the bytes per request in parallel, so it should win for large
 * values and lose slightly for small ones (paper Fig. 4-5).
 *
 * <pre>
 * mvn -B -q install -DskipTests &amp;&amp; java -jar hybris-benchmarks/target/benchmarks.jar ErasureCodingEndToEnd
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(3)
public class ErasureCodingEndToEndBenchmark {

    /** {@code replication} or {@code erasure}. */
    @Param({"replication", "erasure"})
    public String policy;

    /** Value size: 100 KiB, 1 MiB, 10 MiB. */
    @Param({"102400", "1048576", "10485760"})
    public int valueBytes;

    private Hybris hybris;
    private byte[] value;

    /** Opens a client over three emulated clouds and stores the value once. */
    @Setup(Level.Trial)
    public void setUp() {
        value = new byte[valueBytes];
        new Random(1).nextBytes(value);
        HybrisConfig.Builder b = Hybris.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .deadline(Duration.ofSeconds(60)).timerInitial(Duration.ofSeconds(5))
                .erasurePolicy(policy.equals("erasure") ? ErasurePolicy.ERASURE : ErasurePolicy.REPLICATION)
                .erasureDataChunks(2);
        for (String id : List.of("e1", "e2", "e3")) {
            b.cloud(new EmulatedCloud(new InMemoryCloudStore(id), Duration.ofMillis(20), 50_000_000));
        }
        hybris = Hybris.open(b.build());
        hybris.put("bench", "k", value);
    }

    /** Closes the client. */
    @TearDown(Level.Trial)
    public void tearDown() {
        hybris.close();
    }

    /** One PUT of the value. */
    @Benchmark
    public void put() {
        hybris.put("bench", "k", value);
    }

    /** One GET of the value. */
    @Benchmark
    public Optional<byte[]> get() {
        return hybris.get("bench", "k");
    }

    /** A cloud emulated in memory: every put and get waits latency + bytes / bandwidth (per request). */
    static final class EmulatedCloud implements CloudStore {
        private final CloudStore delegate;
        private final long latencyNanos;
        private final double nanosPerByte;

        EmulatedCloud(CloudStore delegate, Duration latency, long bytesPerSecond) {
            this.delegate = delegate;
            this.latencyNanos = latency.toNanos();
            this.nanosPerByte = 1e9 / bytesPerSecond;
        }

        private void transfer(long bytes) {
            long until = System.nanoTime() + latencyNanos + (long) (bytes * nanosPerByte);
            for (long left; (left = until - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(left);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        @Override
        public String id() {
            return delegate.id();
        }

        @Override
        public void put(String objectKey, byte[] value) {
            transfer(value.length);
            delegate.put(objectKey, value);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            Optional<byte[]> got = delegate.get(objectKey, maxBytes);
            transfer(got.map(v -> v.length).orElse(0));
            return got;
        }

        @Override
        public List<CloudObject> list(String prefix) {
            transfer(0);
            return delegate.list(prefix);
        }

        @Override
        public void delete(String objectKey) {
            transfer(0);
            delegate.delete(objectKey);
        }
    }
}
