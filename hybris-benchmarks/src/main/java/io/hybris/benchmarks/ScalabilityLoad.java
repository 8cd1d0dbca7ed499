/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Closed-loop load of {@link ScalabilitySides.Side}: {@code n} caller threads issue GETs or PUTs back to back for a
 * warm-up and then a measurement window; the operations that end inside the window count (the throughput is those
 * operations over the window), and their latencies give p50 and p99. Until 2026-11-28 only the operations that also
 * started inside it counted, which leaves out about one operation per caller per window: with half-second windows
 * and 256 callers at 40-50 ms per operation, a tenth of them, and more of the slower side's.
 */
final class ScalabilityLoad {
    /** This JVM's CPU time, for {@link Result#cpuNanos()}. */
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private ScalabilityLoad() {
    }

    /** GET or PUT. */
    enum Op {
        GET, PUT
    }

    /**
     * What one run measured.
     *
     * @param operations operations completed inside the window
     * @param windowNanos the window
     * @param latenciesMicros their latencies, sorted
     * @param errors operations that failed (anywhere in the run)
     * @param cpuNanos CPU time used during the window by this JVM (every thread: with the in-process ZooKeeper
     *                 servers), or, merged from several processes, by them and the benchmark's JVM; {@code -1} if not
     *                 measured
     */
    record Result(long operations, long windowNanos, long[] latenciesMicros, long errors, long cpuNanos) {
        double perSecond() {
            return operations / (windowNanos / 1e9);
        }

        /** CPU microseconds per operation, or {@code NaN} if not measured. */
        double cpuMicrosPerOp() {
            return cpuNanos < 0 || operations == 0 ? Double.NaN : cpuNanos / 1000.0 / operations;
        }

        /** Several windows measured one after another, as one: their operations over their summed windows. */
        static Result sequential(List<Result> slices) {
            long cpu = slices.stream().allMatch(r -> r.cpuNanos >= 0)
                    ? slices.stream().mapToLong(Result::cpuNanos).sum() : -1;
            return concatenate(slices, slices.stream().mapToLong(Result::windowNanos).sum(), cpu);
        }

        double percentileMs(double p) {
            return Percentiles.of(latenciesMicros, p) / 1000.0;
        }

        /**
         * The results of several processes measured over the same window, as one; its CPU time is theirs plus
         * {@code otherCpuNanos} (the benchmark's own JVM over the window), or {@code -1} if any is not known.
         */
        static Result merge(List<Result> parts, long otherCpuNanos) {
            long cpu = otherCpuNanos >= 0 && parts.stream().allMatch(r -> r.cpuNanos >= 0)
                    ? otherCpuNanos + parts.stream().mapToLong(Result::cpuNanos).sum() : -1;
            return concatenate(parts, parts.stream().mapToLong(Result::windowNanos).max().orElse(0), cpu);
        }

        private static Result concatenate(List<Result> parts, long window, long cpuNanos) {
            long ops = 0;
            long errors = 0;
            int length = 0;
            for (Result r : parts) {
                ops += r.operations;
                errors += r.errors;
                length += r.latenciesMicros.length;
            }
            long[] all = new long[length];
            int at = 0;
            for (Result r : parts) {
                System.arraycopy(r.latenciesMicros, 0, all, at, r.latenciesMicros.length);
                at += r.latenciesMicros.length;
            }
            Arrays.sort(all);
            return new Result(ops, window, all, errors, cpuNanos);
        }

        /** One line: {@code RESULT <operations> <window ns> <errors> <cpu ns> <latency,latency,...>}. */
        String encode() {
            StringBuilder b = new StringBuilder(32 + latenciesMicros.length * 5);
            b.append("RESULT ").append(operations).append(' ').append(windowNanos).append(' ').append(errors)
                    .append(' ').append(cpuNanos).append(' ');
            for (int i = 0; i < latenciesMicros.length; i++) {
                b.append(i == 0 ? "" : ",").append(latenciesMicros[i]);
            }
            return b.toString();
        }

        static Result decode(String line) {
            String[] f = line.split(" ", 6);
            long[] lat = f.length < 6 || f[5].isEmpty() ? new long[0]
                    : Arrays.stream(f[5].split(",")).mapToLong(Long::parseLong).toArray();
            return new Result(Long.parseLong(f[1]), Long.parseLong(f[2]), lat, Long.parseLong(f[3]),
                    Long.parseLong(f[4]));
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.0f ops/s, p50 %.2f ms, p99 %.2f ms, %d errors", perSecond(),
                    percentileMs(50), percentileMs(99), errors);
        }
    }

    /** A growable array of longs (one per caller thread, so no sharing). */
    private static final class Longs {
        private long[] a = new long[4096];
        private int n;

        void add(long v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }
    }

    /**
     * Runs {@code n} callers numbered {@code [firstCaller, firstCaller + n)} against {@code side}: {@code warmupMs}
     * unmeasured, then {@code measureMs} measured.
     */
    static Result run(ScalabilitySides.Side side, Op op, int firstCaller, int n, long warmupMs, long measureMs)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder errors = new LongAdder();
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(n);
        long t0 = System.nanoTime() + 50_000_000L; // every thread is running by then, in practice
        long from = t0 + warmupMs * 1_000_000L;
        long to = from + measureMs * 1_000_000L;
        List<Thread> threads = new ArrayList<>(n);
        List<Longs> latencies = new ArrayList<>(n);
        for (int t = 0; t < n; t++) {
            int caller = firstCaller + t;
            Longs mine = new Longs();
            latencies.add(mine);
            Thread thread = new Thread(() -> {
                started.countDown();
                int i = 0;
                while (!stop.get()) {
                    long start = System.nanoTime();
                    try {
                        if (op == Op.GET) {
                            side.get(caller, i);
                        } else {
                            side.put(caller, i);
                        }
                    } catch (Exception | AssertionError e) {
                        errors.increment();
                        firstError.compareAndSet(null, e);
                        continue;
                    } finally {
                        i = (i + 1) % ScalabilitySides.KEYS_PER_CALLER;
                    }
                    long end = System.nanoTime();
                    if (end > from && end <= to) {
                        mine.add((end - start) / 1000);
                    }
                }
            }, "scalability-" + side.name() + "-" + caller);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        started.await();
        sleepUntil(from); // the warm-up
        long cpu0 = processCpuNanos();
        sleepUntil(to); // the measurement window itself
        long cpu1 = processCpuNanos();
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(120_000);
        }
        int total = latencies.stream().mapToInt(l -> l.n).sum();
        long[] all = new long[total];
        int at = 0;
        for (Longs l : latencies) {
            System.arraycopy(l.a, 0, all, at, l.n);
            at += l.n;
        }
        Arrays.sort(all);
        if (firstError.get() != null) {
            System.err.println("scalability: " + errors.sum() + " failed " + op + "s on " + side.name()
                    + ", the first: " + firstError.get());
        }
        return new Result(all.length, to - from, all, errors.sum(), cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0);
    }

    /** This JVM's CPU time so far, in nanoseconds ({@code -1} if the JVM cannot tell). */
    static long processCpuNanos() {
        return PROCESS.getProcessCpuTime();
    }

    /** Sleeps until {@link System#nanoTime()} reaches {@code nanoTime}: a measurement window's edge. */
    static void sleepUntil(long nanoTime) throws InterruptedException {
        long now = System.nanoTime();
        if (nanoTime > now) {
            Thread.sleep((nanoTime - now) / 1_000_000L + 1);
        }
    }
}
