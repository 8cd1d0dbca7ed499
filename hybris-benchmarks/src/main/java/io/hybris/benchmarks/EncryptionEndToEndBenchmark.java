/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
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
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end PUT and GET latency with encryption off ({@code none}) and on ({@code envelope}), same clouds
 * (in memory) and metadata store (in memory), so the difference is the cost of confidentiality on the client.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(3)
public class EncryptionEndToEndBenchmark {
    @Param({"none", "envelope"})
    public String mode;

    @Param({"1048576"})
    public int valueBytes;

    private Hybris hybris;
    private byte[] value;

    @Setup(Level.Trial)
    public void setUp() {
        value = new byte[valueBytes];
        new Random(1).nextBytes(value);
        HybrisConfig.Builder b = Hybris.builder()
                .f(1)
                .metadataStore(new InMemoryMetadataStore())
                .cloud(new InMemoryCloudStore("m1"))
                .cloud(new InMemoryCloudStore("m2"))
                .cloud(new InMemoryCloudStore("m3"))
                .deadline(Duration.ofSeconds(30));
        if (mode.equals("envelope")) {
            b.encryption(EnvelopeKeyProvider.of(Map.of("kek-1", EnvelopeKeyProvider.generateKek()), "kek-1"));
        }
        hybris = Hybris.open(b.build());
        hybris.put("bench", "k", value);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        hybris.close();
    }

    @Benchmark
    public void put() {
        hybris.put("bench", "k", value);
    }

    @Benchmark
    public Optional<byte[]> get() {
        return hybris.get("bench", "k");
    }
}
