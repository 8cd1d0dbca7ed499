/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import java.util.List;

/**
 * The JIT warm-up before a scalability benchmark's first row of an operation: both sides, one caller as well as
 * several, in short chunks taken in turn, so that neither side's compiled code is invalidated by the other's
 * warm-up after it; the operation's rows follow at once.
 *
 * <p>Warming each side up whole, one after the other (Hybris first), was biased against whichever came first. Both
 * sides share code (the ZooKeeper client, {@code java.util.concurrent}); the second side's load changed the type and
 * branch profiles of code the first side's compiled methods had inlined, so those were deoptimised when the
 * measurement began and ran as profiled C1 code until the compiler caught up again: in a 4-process run's
 * compilation log, Hybris's metadata read path ({@code MetadataCalls.callInline}, the ZooKeeper store's read) was
 * made not entrant at the first measured slice and recompiled by C2 only 8 s later. That is the first row after
 * the warm-up, which is where Hybris's lowest ratios were (docs/benchmarks.md, 2026-11-29). The same can happen
 * between operations (all were warmed up before the first row: GET's rows then ran after PUT's warm-up, PUT's after
 * GET's rows) and between one caller and four (contended and uncontended lock paths).
 */
final class JitWarmUp {
    /** One chunk of warm-up load: {@code callers} of {@code side} ({@code hybris} or {@code raw}) for {@code ms}. */
    @FunctionalInterface
    interface Chunk {
        void run(String side, int callers, long ms) throws Exception;
    }

    private JitWarmUp() {
    }

    /**
     * Runs {@code totalMs} of one operation's load per side, in chunks of {@code chunkMs}: each round runs both
     * sides, the side that goes first alternating from one round to the next, and the callers alternating between
     * {@code callers} and one.
     */
    static void interleaved(long totalMs, long chunkMs, int callers, Chunk chunk) throws Exception {
        if (totalMs <= 0) {
            return;
        }
        long rounds = Math.max(1, (totalMs + chunkMs - 1) / chunkMs);
        long each = totalMs / rounds;
        for (long r = 0; r < rounds; r++) {
            List<String> order = r % 2 == 0 ? List.of("hybris", "raw") : List.of("raw", "hybris");
            int n = r % 2 == 0 ? callers : 1;
            for (String side : order) {
                chunk.run(side, n, each);
            }
        }
    }
}
