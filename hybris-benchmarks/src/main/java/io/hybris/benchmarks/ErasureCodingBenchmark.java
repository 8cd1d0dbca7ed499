/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.spi.ErasureCoder;
import io.hybris.spi.ErasureCoderProvider;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.annotations.Warmup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;

/**
 * Reed-Solomon coder throughput, one thread, 1 MiB chunks: {@code encode} ({@code k} data chunks to {@code m}
 * parity chunks), {@code decodeOneLost} (data chunk 0 lost, restored from the others and parity) and
 * {@code decodeAllParityUsed} ({@code min(m, k)} data chunks lost, so every parity chunk is read), for the
 * {@code java} and {@code native} (ISA-L) coders; {@code arraycopy} copies the same {@code k} MiB with
 * {@link System#arraycopy} as the memory-bandwidth reference. Every operation processes {@code k} MiB of data, so
 * MiB/s = ops/s × {@code k}. The {@code reference} coder ({@link ByteTableReedSolomon}, Backblaze-style byte
 * tables) runs the same work in the same run, so the Java coder's figure is also a ratio to it. Because machines are
 * shared, each benchmark also reports two counters, {@code mib} (MiB processed) and {@code cpuSeconds} (this
 * thread's CPU time); JMH sums such counters over the measurement iterations, so their ratio is the MiB per
 * CPU-second of the whole measurement, which competing processes distort far less than wall-clock throughput.
 * {@code bench/erasure-coders.sh} runs it with the host's SIMD features printed beside the results.
 *
 * <pre>
 * mvn -B -q install -DskipTests &amp;&amp; java -jar hybris-benchmarks/target/benchmarks.jar ErasureCoding
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(3)
public class ErasureCodingBenchmark {

    private static final int CHUNK = 1 << 20;

    /** {@code k+m}. */
    @Param({"2+1", "4+2", "10+4"})
    public String shape;

    /** The coder provider's name, or {@code reference}: {@link ByteTableReedSolomon}, the baseline. */
    @Param({"java", "native", "reference"})
    public String coder;

    private ErasureCoder erasureCoder;
    private byte[][] data;
    private byte[][] parity;
    private byte[][] chunks;
    private byte[][] copies;
    private boolean[] oneLost;
    private boolean[] allParityUsed;
    private int k;

    /** Builds the coder and random chunks. */
    @Setup
    public void setUp() {
        String[] parts = shape.split("\\+");
        k = Integer.parseInt(parts[0]);
        int m = Integer.parseInt(parts[1]);
        erasureCoder = coder.equals("reference") ? new ByteTableReedSolomon(k, m) : provider(coder).create(k, m);
        Random random = new Random(42);
        data = new byte[k][CHUNK];
        for (byte[] d : data) {
            random.nextBytes(d);
        }
        parity = new byte[m][CHUNK];
        erasureCoder.encode(data, parity, CHUNK);
        byte[][] expected = new byte[m][CHUNK]; // every coder computes the same code: check against the Java one
        provider("java").create(k, m).encode(data, expected, CHUNK);
        if (!java.util.Arrays.deepEquals(parity, expected)) {
            throw new IllegalStateException(coder + " coder's parity differs from the Java coder's for " + shape);
        }
        chunks = new byte[k + m][];
        for (int i = 0; i < k + m; i++) {
            chunks[i] = i < k ? data[i].clone() : parity[i - k].clone();
        }
        boolean[] zeroLost = new boolean[k + m];
        java.util.Arrays.fill(zeroLost, true);
        zeroLost[0] = false;
        byte[][] probe = new byte[k + m][];
        for (int i = 0; i < k + m; i++) {
            probe[i] = chunks[i].clone();
        }
        java.util.Arrays.fill(probe[0], (byte) 0);
        erasureCoder.reconstruct(probe, zeroLost, CHUNK, true);
        if (!java.util.Arrays.equals(probe[0], data[0])) {
            throw new IllegalStateException(coder + " coder did not rebuild data chunk 0 for " + shape);
        }
        copies = new byte[k][CHUNK];
        oneLost = new boolean[k + m];
        java.util.Arrays.fill(oneLost, true);
        oneLost[0] = false;
        allParityUsed = new boolean[k + m];
        java.util.Arrays.fill(allParityUsed, true);
        for (int i = 0; i < Math.min(m, k); i++) {
            allParityUsed[i] = false;
        }
    }

    private static ErasureCoderProvider provider(String name) {
        for (ErasureCoderProvider p : ServiceLoader.load(ErasureCoderProvider.class)) {
            if (p.name().equals(name)) {
                if (!p.isAvailable()) {
                    throw new IllegalStateException(name + " coder unavailable: " + p.unavailableReason().orElse(""));
                }
                return p;
            }
        }
        throw new IllegalStateException("no erasure coder named " + name);
    }

    /** Encodes k MiB of data into m MiB of parity. */
    @Benchmark
    public byte[][] encode(CpuTime cpu) {
        long t0 = cpu.start();
        erasureCoder.encode(data, parity, CHUNK);
        cpu.stop(t0, (long) k * CHUNK);
        return parity;
    }

    /** Restores data chunk 0 (the lost chunk's buffer is reused: {@code present} says it is missing). */
    @Benchmark
    public byte[][] decodeOneLost(CpuTime cpu) {
        long t0 = cpu.start();
        erasureCoder.reconstruct(chunks, oneLost, CHUNK, true);
        cpu.stop(t0, (long) k * CHUNK);
        return chunks;
    }

    /** Restores the first min(m, k) data chunks, reading every parity chunk. */
    @Benchmark
    public byte[][] decodeAllParityUsed(CpuTime cpu) {
        long t0 = cpu.start();
        erasureCoder.reconstruct(chunks, allParityUsed, CHUNK, true);
        cpu.stop(t0, (long) k * CHUNK);
        return chunks;
    }

    /** Copies the same k MiB with System.arraycopy: the memory-bandwidth reference (same for both coders). */
    @Benchmark
    public byte[][] arraycopy(CpuTime cpu) {
        long t0 = cpu.start();
        for (int i = 0; i < k; i++) {
            System.arraycopy(data[i], 0, copies[i], 0, CHUNK);
        }
        cpu.stop(t0, (long) k * CHUNK);
        return copies;
    }

    /**
     * MiB processed and CPU-seconds spent by the benchmark thread: JMH sums these {@code EVENTS} counters over the
     * iterations (a rate would be summed too, so it is not one), and MiB per CPU-second is their ratio.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class CpuTime {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
        private long cpuNanos;
        private long bytes;

        /** Clears the counters at the start of each iteration. */
        @Setup(Level.Iteration)
        public void reset() {
            cpuNanos = 0;
            bytes = 0;
        }

        long start() {
            return THREADS.getCurrentThreadCpuTime();
        }

        void stop(long t0, long processed) {
            cpuNanos += THREADS.getCurrentThreadCpuTime() - t0;
            bytes += processed;
        }

        /** MiB processed in this iteration. */
        public double mib() {
            return bytes / (double) (1 << 20);
        }

        /** CPU-seconds spent processing them. */
        public double cpuSeconds() {
            return cpuNanos / 1e9;
        }
    }
}
