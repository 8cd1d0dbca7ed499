/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import io.hybris.cloud.DirectoryCloudStore;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * The child JVM of {@link LargeValueMemoryTest}: opens a client on the embedded default (three directory clouds,
 * f=1, an in-process ZooKeeper, as the quickstart does), measures the live heap after a full collection, then PUTs a
 * pseudo-random value of the given size from a stream and GETs it back as a stream, comparing it byte by byte with
 * a second generator, while {@link HeapWatch} records the heap in use after every collection and runs a full
 * collection every {@value #FULL_GC_INTERVAL_MS} ms (the exact live heap at that instant). Prints one line
 * {@code RESULT key=value ...} (bytes and milliseconds) and exits 0; anything that goes wrong ends it with a stack
 * trace on standard error and exit code 1.
 *
 * <p>Arguments: data directory, value size in bytes, seed.
 */
public final class LargeValueMemoryChild {
    private static final int READ_BUFFER = 64 << 10;
    private static final long FULL_GC_INTERVAL_MS = 200;

    private LargeValueMemoryChild() {
    }

    public static void main(String[] args) {
        ParentWatch.haltWhenParentDies();
        try {
            run(args);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1); // the in-process ZooKeeper's threads would keep the JVM alive
        }
        System.exit(0);
    }

    private static void run(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long size = Long.parseLong(args[1]);
        long seed = Long.parseLong(args[2]);
        HybrisConfig.Builder builder = Hybris.builder().f(1)
                .metadataStore("embedded-zookeeper", Map.of("data-dir", dir.resolve("zookeeper").toString()));
        for (int i = 1; i <= 3; i++) {
            builder.cloud(new DirectoryCloudStore("disk" + i, dir.resolve("cloud-disk" + i)));
        }
        try (Hybris hybris = Hybris.open(builder.build()); HeapWatch heap = new HeapWatch()) {
            long baseline = heap.collectAndMeasure();
            heap.reset();
            heap.sampleFullCollections(java.time.Duration.ofMillis(FULL_GC_INTERVAL_MS));

            long t0 = System.nanoTime();
            VersionInfo put = hybris.put("big", "value", new PseudoRandomStream(seed, size), size);
            long putMillis = (System.nanoTime() - t0) / 1_000_000;
            heap.awaitAllNotified(java.time.Duration.ofSeconds(30));
            long putPeak = heap.peakAfterGc();
            long putGcs = heap.collections();
            long putPoolPeaks = heap.poolPeaks();
            long putLive = heap.peakAfterFullGc();
            long putFullGcs = heap.fullCollections();
            heap.reset();

            long t1 = System.nanoTime();
            long[] verified;
            try (ValueStream in = hybris.getStream("big", "value").orElseThrow()) {
                if (in.length() != size || in.version().size() != size) {
                    throw new AssertionError("stream of " + in.length() + " bytes, version " + in.version()
                            + "; expected " + size);
                }
                verified = compare(in, new PseudoRandomStream(seed, size));
            }
            long getMillis = (System.nanoTime() - t1) / 1_000_000;
            heap.awaitAllNotified(java.time.Duration.ofSeconds(30));
            long getPeak = heap.peakAfterGc();
            long getGcs = heap.collections();
            long getPoolPeaks = heap.poolPeaks();
            long getLive = heap.peakAfterFullGc();
            long getFullGcs = heap.fullCollections();
            long after = heap.collectAndMeasure();

            System.out.println("RESULT baseline=" + baseline + " putPeakAfterGc=" + putPeak + " getPeakAfterGc="
                    + getPeak + " putGcs=" + putGcs + " getGcs=" + getGcs + " putPoolPeaks=" + putPoolPeaks
                    + " getPoolPeaks=" + getPoolPeaks + " putPeakAfterFullGc=" + putLive + " putFullGcs=" + putFullGcs
                    + " getPeakAfterFullGc=" + getLive + " getFullGcs=" + getFullGcs + " after=" + after + " putSize=" + put.size()
                    + " verified=" + verified[0] + " mismatchAt=" + verified[1] + " putMillis=" + putMillis
                    + " getMillis=" + getMillis + " maxHeap=" + Runtime.getRuntime().maxMemory());
            System.out.flush();
        }
    }

    /**
     * Reads both streams to their ends; returns the bytes that matched before the first difference (or the end) and
     * the offset of the first difference, -1 if none (streams of different lengths differ at the shorter's end).
     */
    private static long[] compare(InputStream actual, InputStream expected) throws IOException {
        byte[] a = new byte[READ_BUFFER];
        byte[] e = new byte[READ_BUFFER];
        long offset = 0;
        while (true) {
            int n = actual.readNBytes(a, 0, a.length);
            int m = expected.readNBytes(e, 0, n == 0 ? 1 : n);
            if (n == 0 && m == 0) {
                return new long[] {offset, -1};
            }
            int at = Arrays.mismatch(a, 0, n, e, 0, m);
            if (at >= 0) {
                return new long[] {offset + at, offset + at};
            }
            offset += n;
        }
    }
}
