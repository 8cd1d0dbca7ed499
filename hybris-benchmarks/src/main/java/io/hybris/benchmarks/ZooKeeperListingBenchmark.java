/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;
import io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper;
import io.hybris.spi.MetadataPage;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;

import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A full paged listing of one large ZooKeeper container (docs/zookeeper.md, listings): the store's
 * {@code list} page after page, against two raw ZooKeeper clients on the same server doing the same reads — one
 * {@code sync} + {@code getChildren} per listing and the page's {@code getData}s pipelined (the fair baseline: what
 * the store does when its kept names are current, minus the per-page {@code sync} + {@code exists}), and one
 * {@code sync} + {@code getChildren} per page (what the store did before it kept names: the quadratic reference).
 * The three sides take turns, one whole listing each, in ABC CBA order, for {@code rounds} rounds; the table gives
 * each side's median listing time and the store's ratio to each raw side.
 *
 * <p>Usage: {@code ZooKeeperListingBenchmark [keys (40000)] [page (1000)] [rounds (6)]}; prints a Markdown table.
 */
public final class ZooKeeperListingBenchmark {
    private static final int PIPELINED = 256;
    private static final String ROOT = "/listing-bench";
    private static final String CONTAINER = ROOT + "/c";

    private ZooKeeperListingBenchmark() {
    }

    /** Runs the benchmark; see the class documentation for the arguments. */
    public static void main(String[] args) throws Exception {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
        int page = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 6;
        run(keys, page, rounds, System.out);
    }

    /**
     * Fills a container of {@code keys} keys on a new in-process server, lists it in turns and prints the table to
     * {@code out}; returns each side's median listing time in nanoseconds (store, raw once, raw per page).
     *
     * @throws IllegalStateException if a side did not list every key exactly once
     */
    static double[] run(int keys, int page, int rounds, PrintStream out) throws Exception {
        try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(Files.createTempDirectory("hybris-listing"), 0);
             ZooKeeperMetadataStore store = ZooKeeperMetadataStore.builder().connect(server.connectString())
                     .root(ROOT).connectTimeout(Duration.ofSeconds(30)).build()) {
            ZKClientConfig config = new ZKClientConfig();
            config.setProperty(ZKConfig.JUTE_MAXBUFFER, Integer.toString(64 << 20)); // as the store's default
            ZooKeeper zk = new ZooKeeper(server.connectString(), 30_000, event -> { }, config);
            try {
                fill(zk, keys);
                long[][] nanos = new long[3][rounds];
                int[] listed = new int[3];
                for (int r = 0; r < rounds; r++) {
                    for (int turn = 0; turn < 3; turn++) {
                        int side = r % 2 == 0 ? turn : 2 - turn;
                        long t0 = System.nanoTime();
                        listed[side] = switch (side) {
                            case 0 -> listWithStore(store, page);
                            case 1 -> listRaw(zk, page, false);
                            default -> listRaw(zk, page, true);
                        };
                        nanos[side][r] = System.nanoTime() - t0;
                    }
                }
                for (int side = 0; side < 3; side++) {
                    if (listed[side] != keys) { // every key once: the sides did the same work
                        throw new IllegalStateException("side " + side + " listed " + listed[side] + " of " + keys);
                    }
                }
                double store0 = median(nanos[0]);
                double once = median(nanos[1]);
                double perPage = median(nanos[2]);
                out.printf(Locale.ROOT, "%d keys of %d characters, pages of %d, %d rounds (median of each"
                        + " side's full listing)%n%n", keys, name(0).length(), page, rounds);
                out.println("| side | ms per listing | store / side |");
                out.println("|---|---|---|");
                out.printf(Locale.ROOT, "| store `list`, page after page | %.0f | 1.00 |%n", store0 / 1e6);
                out.printf(Locale.ROOT, "| raw: `getChildren` once, pages' `getData` pipelined (fair) | %.0f"
                        + " | %.2f |%n", once / 1e6, store0 / once);
                out.printf(Locale.ROOT, "| raw: `getChildren` per page (the store before) | %.0f | %.2f |%n",
                        perPage / 1e6, store0 / perPage);
                return new double[] {store0, once, perPage};
            } finally {
                zk.close();
            }
        }
    }

    private static String name(int i) {
        return "photos-2026-holiday-camera-roll-" + String.format("%08d", i);
    }

    private static void fill(ZooKeeper zk, int keys) throws Exception {
        if (zk.exists(CONTAINER, false) == null) {
            zk.create(CONTAINER, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        CountDownLatch done = new CountDownLatch(keys);
        byte[] metadata = new byte[120]; // about a Hybris metadata record
        AsyncCallback.StringCallback counted = (rc, path, ctx, name) -> done.countDown();
        for (int i = 0; i < keys; i++) {
            zk.create(CONTAINER + "/" + name(i), metadata, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                    counted, null);
        }
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("creating " + keys + " znodes took over 10 minutes");
        }
    }

    private static int listWithStore(ZooKeeperMetadataStore store, int page) {
        int n = 0;
        String after = null;
        while (true) {
            MetadataPage p = store.list("c", "", after, page);
            n += p.entries().size();
            if (!p.hasMore()) {
                return n;
            }
            after = p.entries().get(p.entries().size() - 1).key();
        }
    }

    private static int listRaw(ZooKeeper zk, int page, boolean childrenPerPage) throws Exception {
        List<String> names = sortedChildren(zk);
        int n = 0;
        for (int from = 0; from < names.size(); from += page) {
            if (childrenPerPage && from > 0) {
                names = sortedChildren(zk);
            }
            List<String> batch = names.subList(from, Math.min(names.size(), from + page));
            for (int b = 0; b < batch.size(); b += PIPELINED) {
                n += readAll(zk, batch.subList(b, Math.min(batch.size(), b + PIPELINED)));
            }
        }
        return n;
    }

    private static List<String> sortedChildren(ZooKeeper zk) throws Exception {
        CompletableFuture<Integer> synced = new CompletableFuture<>();
        zk.sync(CONTAINER, (rc, path, ctx) -> synced.complete(rc), null);
        List<String> children = new ArrayList<>(zk.getChildren(CONTAINER, false));
        synced.get(30, TimeUnit.SECONDS);
        children.sort(null);
        return children;
    }

    private static int readAll(ZooKeeper zk, List<String> names) throws Exception {
        List<CompletableFuture<byte[]>> reads = new ArrayList<>(names.size());
        for (String name : names) {
            CompletableFuture<byte[]> read = new CompletableFuture<>();
            zk.getData(CONTAINER + "/" + name, false, (rc, path, ctx, data, stat) -> {
                if (rc == KeeperException.Code.OK.intValue()) {
                    read.complete(data);
                } else {
                    read.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), path));
                }
            }, null);
            reads.add(read);
        }
        int n = 0;
        for (CompletableFuture<byte[]> read : reads) {
            read.get(30, TimeUnit.SECONDS);
            n++;
        }
        return n;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    }
}
