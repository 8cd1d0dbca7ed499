/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.rmds.consul.ConsulMetadataStore;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;
import io.hybris.testkit.ConsulTestAgent;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * The notification latency of the change feed: from the start of a writer's call to a subscriber's listener, on
 * ZooKeeper (curator-test {@code TestingServer}, in process, fsync on) and on Consul ({@code consul agent -dev}),
 * with 1 and 100 subscribers, Hybris side by side with raw clients doing the same work the same way:
 * <ul>
 *   <li><b>Hybris</b>: one writer client (f=1, three in-memory clouds) PUTs small values; every subscriber has its
 *       own client and metadata store (own session) on {@code subscribe(container, "", latestCursor, listener)};</li>
 *   <li><b>raw</b> (the fair baseline): raw Curator / raw consul-client; the writer does a Hybris PUT's metadata
 *       work (read the key, then one {@code multi} / {@code /v1/txn} of the key and its log record, the same
 *       sizes as Hybris's) and every subscriber, with its own session / client and thread, follows the log the
 *       least way (child watch + getChildren + getData; blocking query on the head + read transaction of gets);</li>
 *   <li><b>raw + Hybris's reads</b>: the same, but the subscribers also make the reads Hybris's subscription
 *       makes per notification (sync and compaction marker; marker and head), which splits Hybris's extra time
 *       into those reads and its own work.</li>
 * </ul>
 * Writes start every {@code gap} ms, so the figures are latencies, not queueing; every subscriber's every change is
 * one sample; the sides take turns round by round (the first side rotates) so machine noise hits all of them; every
 * subscriber must receive every change written, once, in order, or the run fails naming the subscriber and the
 * change. Prints a Markdown table.
 *
 * <pre>
 * java -Dhybris.test.consul=$(./src/test/install-consul.sh) -cp hybris-benchmarks/target/benchmarks.jar \
 *     io.hybris.benchmarks.ChangeFeedLatencyRun [stores=zookeeper,consul] [subscribers=1,100]
 *     [changes=600,300] [gap=30,200] [rounds=6] [warmup=300,100] [value=1024]
 * </pre>
 * {@code changes} (per side, split evenly over the rounds), {@code gap} (ms from one write's start to the next's)
 * and {@code warmup} (changes per side before measuring, checked, not counted) take one value, or one per
 * subscriber count.
 */
public final class ChangeFeedLatencyRun {
    private static final Duration WATCH_WAIT = Duration.ofMinutes(5); // the Consul store's default watch-wait
    private static final String CONSUL_LIMITS = "limits { http_max_conns_per_client = 4096 }\n";

    private final List<String> stores;
    private final List<Integer> subscriberCounts;
    private final List<Integer> changes;
    private final List<Integer> gapsMillis;
    private final int rounds;
    private final List<Integer> warmups;
    private final int valueBytes;
    private final List<String> latencyRows = new ArrayList<>();
    private final List<String> detailRows = new ArrayList<>();

    private ChangeFeedLatencyRun(Map<String, String> o) {
        this.stores = List.of(o.getOrDefault("stores", "zookeeper,consul").split(","));
        this.subscriberCounts = ints(o.getOrDefault("subscribers", "1,100"));
        this.changes = perCount(ints(o.getOrDefault("changes", "600,300")), "changes");
        this.gapsMillis = perCount(ints(o.getOrDefault("gap", "30,200")), "gap");
        this.rounds = Integer.parseInt(o.getOrDefault("rounds", "6"));
        this.warmups = perCount(ints(o.getOrDefault("warmup", "300,100")), "warmup");
        this.valueBytes = Integer.parseInt(o.getOrDefault("value", "1024"));
        for (int c : changes) {
            if (c % rounds != 0) {
                throw new IllegalArgumentException("changes (" + c + ") must be a multiple of rounds (" + rounds + ")");
            }
        }
    }

    private static List<Integer> ints(String list) {
        return List.of(list.split(",")).stream().map(String::trim).map(Integer::parseInt).toList();
    }

    /** One value for all subscriber counts, or one per subscriber count. */
    private List<Integer> perCount(List<Integer> values, String name) {
        if (values.size() == 1) {
            return java.util.Collections.nCopies(subscriberCounts.size(), values.get(0));
        }
        if (values.size() != subscriberCounts.size()) {
            throw new IllegalArgumentException(name + " takes one value, or one per subscriber count "
                    + subscriberCounts + ": " + values);
        }
        return values;
    }

    /** Runs the benchmark; arguments are {@code key=value} (see the class comment). */
    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("expected key=value: " + a);
            }
            o.put(kv[0], kv[1]);
        }
        try {
            new ChangeFeedLatencyRun(o).run();
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0); // the raw Consul subscribers' blocking queries hold non-daemon OkHttp threads
    }

    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "# change feed notification latency: stores %s, subscribers %s, changes per"
                        + " side %s in %d rounds, a write every %s ms, %s warm-up changes, %d-byte values; %d cores,"
                        + " JDK %s%n", stores, subscriberCounts, changes, rounds, gapsMillis, warmups, valueBytes,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        for (String store : stores) {
            switch (store) {
                case "zookeeper" -> onZooKeeper();
                case "consul" -> onConsul();
                default -> throw new IllegalArgumentException("stores: zookeeper and/or consul, not " + store);
            }
        }
        System.out.println();
        System.out.println("Notification latency, ms from the start of the writer's call to the subscriber's"
                + " listener (every subscriber's every change counts); Hybris / side > 1: Hybris slower:");
        System.out.println();
        System.out.println("| store | subscribers | side | p50 | p90 | p99 | max | Hybris / side, p50 |"
                + " Hybris / side, p99 |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        latencyRows.forEach(System.out::println);
        System.out.println();
        System.out.println("Details: the writer's call (ms), the notification latency after the call returned (ms,"
                + " clamped at 0; share that arrived before it returned), when the last subscriber heard of a change"
                + " (ms from the call's start), CPU ms per change (this JVM and the Consul agent: writer, subscribers,"
                + " the ZooKeeper server in process; in brackets the Consul agent's part):");
        System.out.println();
        System.out.println("| store | subscribers | side | notifications | writer's call p50 / p99 | after the call"
                + " returned p50 / p99 (before it) | last subscriber p50 / p99 | CPU per change |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        detailRows.forEach(System.out::println);
    }

    private void onZooKeeper() throws Exception {
        // maxClientCnxns 0: no limit (the default 60 per address is less than the clients on loopback)
        InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, -1, 0);
        try (TestingServer zk = new TestingServer(spec, true)) {
            String connect = zk.getConnectString();
            for (int c = 0; c < subscriberCounts.size(); c++) {
                int subscribers = subscriberCounts.get(c);
                String root = "/s" + subscribers;
                HybrisFeedSide hybris = new HybrisFeedSide("Hybris", () -> ZooKeeperMetadataStore.builder()
                        .connect(connect).root(root + "-hybris").build(), valueBytes);
                compare("ZooKeeper", c, hybris, sizes -> List.of(
                        new ZooKeeperRawFeedSide("raw Curator", connect, root + "-raw", false, sizes[0], sizes[1]),
                        new ZooKeeperRawFeedSide("raw Curator + Hybris's reads", connect, root + "-reads", true,
                                sizes[0], sizes[1])));
            }
        }
    }

    private void onConsul() throws Exception {
        try (ConsulTestAgent agent = ConsulTestAgent.dev(CONSUL_LIMITS)) {
            String address = agent.address();
            for (int c = 0; c < subscriberCounts.size(); c++) {
                int subscribers = subscriberCounts.get(c);
                String prefix = "s" + subscribers;
                HybrisFeedSide hybris = new HybrisFeedSide("Hybris", () -> ConsulMetadataStore.builder()
                        .address(address).keyPrefix(prefix + "-hybris").watchWait(WATCH_WAIT).build(), valueBytes);
                compare("Consul", c, hybris, sizes -> List.of(
                        new ConsulRawFeedSide("raw consul-client", address, prefix + "-raw", false, WATCH_WAIT,
                                sizes[0], sizes[1]),
                        new ConsulRawFeedSide("raw consul-client + Hybris's reads", address, prefix + "-reads", true,
                                WATCH_WAIT, sizes[0], sizes[1])));
            }
        }
    }

    private void compare(String store, int config, HybrisFeedSide hybris,
                         Function<int[], List<FeedSide>> baselines) throws Exception {
        int subscribers = subscriberCounts.get(config);
        int perRound = changes.get(config) / rounds;
        long gapNanos = TimeUnit.MILLISECONDS.toNanos(gapsMillis.get(config));
        int warmup = warmups.get(config);
        List<FeedSide> sides = new ArrayList<>();
        Map<FeedSide, FeedRecorder> recorders = new LinkedHashMap<>();
        Map<FeedSide, FeedLatencies> results = new LinkedHashMap<>();
        try {
            long t0 = System.nanoTime();
            sides.add(hybris);
            open(hybris, subscribers, warmup, gapNanos, recorders);
            int[] sizes = hybris.entryAndRecordBytes();
            for (FeedSide b : baselines.apply(sizes)) {
                sides.add(b);
                open(b, subscribers, warmup, gapNanos, recorders);
            }
            System.out.printf(Locale.ROOT, "# %s, %d subscriber(s): sides open and warmed up in %.1f s; metadata"
                    + " entry %d bytes, log record %d bytes (both sides)%n", store, subscribers,
                    (System.nanoTime() - t0) / 1e9, sizes[0], sizes[1]);
            sides.forEach(s -> results.put(s, new FeedLatencies()));
            for (int r = 0; r < rounds; r++) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "# round %d:", r + 1));
                for (int i = 0; i < sides.size(); i++) {
                    FeedSide side = sides.get((i + r) % sides.size());
                    FeedRound round = round(side, recorders.get(side), subscribers, perRound, gapNanos);
                    FeedLatencies one = new FeedLatencies();
                    round.addTo(one);
                    round.addTo(results.get(side));
                    line.append(String.format(Locale.ROOT, " %s p50 %.2f p99 %.2f cpu %.1f;", side.name(),
                            one.notify(50), one.notify(99), one.cpuPerChange()));
                }
                System.out.println(line);
            }
        } finally {
            sides.forEach(FeedSide::close);
        }
        FeedLatencies h = results.get(hybris);
        for (FeedSide side : sides) {
            FeedLatencies l = results.get(side);
            boolean isHybris = side == hybris;
            String name = isHybris ? "**Hybris**" : side.name();
            latencyRows.add(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s |", store,
                    subscribers, name, bold(l.notify(50), isHybris), ms(l.notify(90)), bold(l.notify(99), isHybris),
                    ms(l.notify(100)), isHybris ? "" : ratio(h.notify(50), l.notify(50)),
                    isHybris ? "" : ratio(h.notify(99), l.notify(99))));
            detailRows.add(String.format(Locale.ROOT, "| %s | %d | %s | %,d | %.2f / %.2f | %.2f / %.2f (%.0f %%) |"
                            + " %.2f / %.2f | %.1f%s |", store, subscribers, name, l.notifications(), l.writeCall(50),
                    l.writeCall(99), l.afterReturn(50), l.afterReturn(99), 100.0 * l.clamped() / l.notifications(),
                    l.lastArrival(50), l.lastArrival(99), l.cpuPerChange(), l.agentCpuPerChange() > 0
                            ? String.format(Locale.ROOT, " (agent %.1f)", l.agentCpuPerChange()) : ""));
        }
    }

    /** CPU time used so far by this JVM and by its child processes (the Consul agent). */
    private static long[] cpuNanos() {
        long jvm = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long children = ProcessHandle.current().descendants()
                .mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L)).sum();
        return new long[] {jvm, children};
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String bold(double v, boolean bold) {
        return bold ? "**" + ms(v) + "**" : ms(v);
    }

    private static String ratio(double hybris, double other) {
        return String.format(Locale.ROOT, "%.2f", hybris / other);
    }

    /** Opens a side and runs its warm-up round (verified, not counted). */
    private void open(FeedSide side, int subscribers, int warmup, long gapNanos,
                      Map<FeedSide, FeedRecorder> recorders) throws Exception {
        FeedRecorder recorder = new FeedRecorder();
        recorders.put(side, recorder);
        side.open(subscribers, recorder);
        if (warmup > 0) {
            round(side, recorder, subscribers, warmup, gapNanos);
        }
    }

    /** Writes {@code n} changes, one every gap, then waits for every subscriber to have all and checks them. */
    private FeedRound round(FeedSide side, FeedRecorder recorder, int subscribers, int n, long gapNanos)
            throws Exception {
        FeedRound round = new FeedRound(side.name(), subscribers, n);
        recorder.begin(round);
        long[] cpu = cpuNanos();
        long next = System.nanoTime();
        for (int i = 0; i < n; i++) {
            for (long now = System.nanoTime(); now < next; now = System.nanoTime()) {
                LockSupport.parkNanos(next - now);
            }
            long start = System.nanoTime();
            String id = side.write();
            long end = System.nanoTime();
            round.written(start, end, id);
            next = Math.max(next + gapNanos, end);
        }
        round.awaitAll(60_000);
        long[] cpuAfter = cpuNanos();
        round.cpu(cpuAfter[0] - cpu[0] + cpuAfter[1] - cpu[1], cpuAfter[1] - cpu[1]);
        Thread.sleep(100); // room for a repeated delivery to show
        recorder.end();
        round.verify(recorder.problems());
        return round;
    }
}
