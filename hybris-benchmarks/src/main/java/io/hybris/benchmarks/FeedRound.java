/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One round of one {@link FeedSide}: when the writer started and finished each change, and when each subscriber
 * received which change. Every subscriber must receive exactly the changes written, in the order written, once:
 * {@link #verify} says precisely which subscriber missed (or repeated, or reordered) which change otherwise. Each
 * subscriber reports from one thread, so its arrays have a single writer; its count is published last.
 */
final class FeedRound {
    private static final int SLACK = 64; // room to record (and report) deliveries beyond the changes written

    private final String side;
    private final long[] start;
    private final long[] end;
    private final String[] written;
    private int writes;
    private long cpuNanos;
    private long agentCpuNanos;
    private final Track[] tracks;

    private static final class Track {
        final long[] at;
        final String[] ids;
        volatile int count;

        Track(int capacity) {
            at = new long[capacity];
            ids = new String[capacity];
        }
    }

    FeedRound(String side, int subscribers, int changes) {
        this.side = side;
        this.start = new long[changes];
        this.end = new long[changes];
        this.written = new String[changes];
        this.tracks = new Track[subscribers];
        for (int s = 0; s < subscribers; s++) {
            tracks[s] = new Track(changes + SLACK);
        }
    }

    /** The writer's call for the next change started at {@code startNanos}, returned at {@code endNanos}. */
    void written(long startNanos, long endNanos, String id) {
        start[writes] = startNanos;
        end[writes] = endNanos;
        written[writes++] = id;
    }

    void delivered(int subscriber, String id, long atNanos) {
        Track t = tracks[subscriber];
        int k = t.count;
        if (k < t.at.length) {
            t.at[k] = atNanos;
            t.ids[k] = id;
        }
        t.count = k + 1;
    }

    /** The CPU time the benchmark's processes used during the round: all, and the Consul agent's part. */
    void cpu(long nanos, long agentNanos) {
        cpuNanos = nanos;
        agentCpuNanos = agentNanos;
    }

    /** Waits until every subscriber has received as many changes as were written, or the timeout passes. */
    void awaitAll(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (Track t : tracks) {
            while (t.count < writes && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        }
    }

    /**
     * Throws unless every subscriber received exactly the changes written, in order, once each, and nothing went
     * wrong elsewhere ({@code problems}).
     */
    void verify(List<String> problems) {
        List<String> bad = new ArrayList<>(problems);
        int failing = 0;
        for (int s = 0; s < tracks.length; s++) {
            String why = check(tracks[s]);
            if (why != null) {
                failing++;
                if (bad.size() < 20) {
                    bad.add("subscriber " + s + ": " + why);
                }
            }
        }
        if (!bad.isEmpty()) {
            throw new IllegalStateException(side + ": " + failing + " of " + tracks.length + " subscribers did not"
                    + " receive exactly the " + writes + " changes written, in order, once each:\n  "
                    + String.join("\n  ", bad));
        }
    }

    private String check(Track t) {
        int count = t.count;
        boolean exact = count == writes;
        for (int k = 0; exact && k < count; k++) {
            exact = written[k].equals(t.ids[k]);
        }
        if (exact) {
            return null;
        }
        int recorded = Math.min(count, t.ids.length);
        Set<String> got = new LinkedHashSet<>();
        List<String> repeated = new ArrayList<>();
        for (int k = 0; k < recorded; k++) {
            if (!got.add(t.ids[k])) {
                repeated.add(t.ids[k]);
            }
        }
        List<String> missing = new ArrayList<>();
        Set<String> expected = new HashSet<>();
        for (int k = 0; k < writes; k++) {
            expected.add(written[k]);
            if (!got.contains(written[k])) {
                missing.add("#" + k + " " + written[k]);
            }
        }
        List<String> foreign = got.stream().filter(id -> !expected.contains(id)).toList();
        int firstDiff = 0;
        while (firstDiff < Math.min(recorded, writes) && written[firstDiff].equals(t.ids[firstDiff])) {
            firstDiff++;
        }
        return "received " + count + " of " + writes + "; missing " + head(missing) + "; repeated " + head(repeated)
                + "; not written " + head(foreign) + "; first difference at #" + firstDiff + " (written "
                + (firstDiff < writes ? written[firstDiff] : "-") + ", received "
                + (firstDiff < recorded ? t.ids[firstDiff] : "-") + ")";
    }

    private static String head(List<String> items) {
        return items.isEmpty() ? "none" : items.size() + " " + items.subList(0, Math.min(5, items.size()))
                + (items.size() > 5 ? "..." : "");
    }

    /** Adds this round's (verified) latencies to {@code to}. */
    void addTo(FeedLatencies to) {
        for (int k = 0; k < writes; k++) {
            long last = start[k];
            for (Track t : tracks) {
                to.notification((t.at[k] - start[k]) / 1e6, (t.at[k] - end[k]) / 1e6);
                last = Math.max(last, t.at[k]);
            }
            to.change((end[k] - start[k]) / 1e6, (last - start[k]) / 1e6);
        }
        to.cpu(cpuNanos, agentCpuNanos);
    }
}
