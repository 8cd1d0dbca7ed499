/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.benchmarks.ScalabilityLoad.Op;
import io.hybris.benchmarks.ScalabilityLoad.Result;
import io.hybris.benchmarks.ScalabilitySides.Side;
import io.hybris.benchmarks.ScalabilitySides.StoreKind;
import io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper;
import io.hybris.testkit.ConsulTestAgent;
import io.hybris.testkit.ServerPorts;
import io.hybris.testkit.ZooKeeperStatus;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Throughput and latency as concurrent callers grow (the performance issue's item 1, the paper's Fig. 7): Hybris
 * GETs and PUTs of 1 KiB values over three in-memory clouds, side by side in the same run with the raw metadata
 * client issuing the same metadata requests at the same concurrency ({@link ScalabilitySides}), for each number of
 * callers, on each metadata store: one ZooKeeper server ({@code zookeeper}), a 3-server ensemble in this JVM
 * ({@code ensemble}; both clients talk to the same follower) and a Consul dev agent ({@code consul}). Callers are
 * threads sharing one client ({@code threads}) and, for the counts divisible by the number of processes, the same
 * number of callers spread over that many client processes ({@code processes}: {@link ScalabilityWorker}s, each
 * with its own Hybris client and raw client). Each side of a point is measured in {@code --rounds} slices, in the order
 * A B B A A B B A (A alternating from one row to the next), and a row reports each side's operations over its slices
 * (the pooled ratio) and the median of Hybris/raw over the back-to-back pairs of slices (the paired ratio, which a
 * change of the machine's speed between pairs does not move; with its range over the pairs). The
 * CPU column is the CPU time per operation of the benchmark's JVM (with the in-process ZooKeeper servers, not the
 * Consul agent) plus, in the processes mode, the worker processes', over the window: where both sides saturate the
 * same cores, it says how much of a gap is CPU.
 *
 * <p>Usage: {@code ScalabilityBenchmark [--seconds 6 (per point and side)] [--rounds 12 (slices per point and side)]
 * [--warmup-ms 250 (per slice)] [--jit-warmup-ms 10000 (per side and op, before the op's first threads row, in
 * chunks taken in turn: {@link JitWarmUp})]
 * [--process-jit-warmup-ms 30000 (the same in the worker processes, before the op's first processes row)]
 * [--callers 1,4,16,64,256]
 * [--stores zookeeper,ensemble,consul] [--processes 4 (0: none)] [--ops GET,PUT] [--out <dir>]}; Consul needs
 * {@code -Dhybris.test.consul=<consul binary>}. Prints a markdown table; with {@code --out}, also writes
 * {@code results.csv} there ({@code bench/scalability.sh} plots it).
 */
public final class ScalabilityBenchmark {
    /** The length of one chunk of the threads mode's JIT warm-up ({@link JitWarmUp}). */
    private static final long THREADS_WARMUP_CHUNK_MS = 1_000;
    /** The same in the worker processes: each command to them takes a round trip, and they warm up longer. */
    private static final long PROCESS_WARMUP_CHUNK_MS = 2_500;
    /** The CSV header of {@code results.csv}. */
    static final String CSV_HEADER =
            "store,mode,op,callers,side,ops_per_s,p50_ms,p99_ms,errors,cpu_us_per_op,paired_ratio";

    private ScalabilityBenchmark() {
    }

    /**
     * One measured point of both sides.
     *
     * @param store {@code zookeeper}, {@code ensemble} or {@code consul}
     * @param mode {@code threads} or {@code processes}
     * @param op GET or PUT
     * @param callers concurrent callers in all
     * @param hybris the Hybris side
     * @param raw the raw side
     */
    record Row(String store, String mode, Op op, int callers, Result hybris, Result raw, double[] pairRatios) {
        Row {
            pairRatios = pairRatios.clone();
            Arrays.sort(pairRatios);
        }

        double ratio() {
            return hybris.perSecond() / raw.perSecond();
        }

        /**
         * The median, over the pairs of adjacent slices (one of each side, back to back), of Hybris's throughput over
         * raw's in the pair: a change of the machine's speed between pairs (this host's CPU moved by up to 2.5x from
         * one minute to the next, 2026-11-28) moves both slices of a pair alike, where it weighs on the pooled
         * {@link #ratio()} as much as the difference between the clients.
         */
        double pairedRatio() {
            int n = pairRatios.length;
            return n % 2 == 1 ? pairRatios[n / 2] : (pairRatios[n / 2 - 1] + pairRatios[n / 2]) / 2;
        }

        String markdown() {
            return String.format(Locale.ROOT, "| %s | %s | %s | %d | %,.0f | %,.0f | %.2f | **%.2f** (%.2f-%.2f)"
                    + " | %.2f / %.2f | %.2f / %.2f | %s / %s | %d / %d |", store, mode, op, callers,
                    hybris.perSecond(), raw.perSecond(), ratio(), pairedRatio(), pairRatios[0],
                    pairRatios[pairRatios.length - 1], hybris.percentileMs(50), hybris.percentileMs(99),
                    raw.percentileMs(50), raw.percentileMs(99), cpu(hybris), cpu(raw), hybris.errors(), raw.errors());
        }

        private static String cpu(Result r) {
            double us = r.cpuMicrosPerOp();
            return Double.isNaN(us) ? "-" : String.format(Locale.ROOT, "%.0f", us);
        }

        List<String> csv() {
            List<String> lines = new ArrayList<>();
            for (Result r : List.of(hybris, raw)) {
                double cpu = r.cpuMicrosPerOp();
                lines.add(String.format(Locale.ROOT, "%s,%s,%s,%d,%s,%.1f,%.3f,%.3f,%d,%s,%.3f", store, mode, op,
                        callers, r == hybris ? "hybris" : "raw", r.perSecond(), r.percentileMs(50),
                        r.percentileMs(99), r.errors(), Double.isNaN(cpu) ? "" : String.format(Locale.ROOT, "%.1f", cpu),
                        pairedRatio()));
            }
            return lines;
        }
    }

    /** What to run; see the class comment for the defaults. */
    record Options(double seconds, long warmupMs, long jitWarmupMs, long processJitWarmupMs, int rounds,
                   List<Integer> callers,
                   List<String> stores, int processes, List<Op> ops, Path out) {
        static Options parse(String... args) {
            double seconds = 6;
            // per slice, before its measurement: the callers' threads start and reach their steady loop (the JIT
            // warm-up below runs once, before the first row)
            long warmupMs = 250;
            // the first load of each side and op, before any row: long enough for the JIT to compile Hybris's path
            // in every client JVM (4 child JVMs on 2 cores: with 2 s the first process rows measured Hybris half
            // compiled, 0.38-0.58x raw, against 0.73-0.94x after 10 s; docs/benchmarks.md, 2026-11-25)
            long jitWarmupMs = 10_000;
            // the same for the worker processes, longer: each compiles on its share of the cores (with 4 workers and
            // the store on 2 cores, ~0.4 each), and after 10-20 s their compiler threads still took 4-23 % of the
            // machine in the Hybris slices; 30 s moved 4-process PUT at 4 callers from 0.57-0.82 to 1.08 (2026-11-25)
            long processJitWarmupMs = 30_000;
            // each side measured in twelve half-second slices, in the order A B B A A B B A ...: a drift of the
            // machine (the fsync times of the ZooKeeper log, the JIT, another process) during a point then weighs on
            // both sides alike (single slices, A B, moved a point's ratio by up to 0.3 between runs;
            // docs/benchmarks.md, 2026-11-25), and the twelve back-to-back pairs give the paired ratio's median.
            // On the 2-core development host a thread hand-off's cost moves by -10 to +50 % from one second to the
            // next (a fixed ALU loop by 4 %), so one pair's ratio ranges over 0.6-1.4; with 12 pairs two runs
            // agreed within 0.07 at every point, with 4 pairs of 1 s slices they did not (2026-11-28)
            int rounds = 12;
            List<Integer> callers = List.of(1, 4, 16, 64, 256);
            List<String> stores = List.of("zookeeper", "ensemble", "consul");
            int processes = 4;
            List<Op> ops = List.of(Op.GET, Op.PUT);
            Path out = null;
            for (int i = 0; i + 1 < args.length; i += 2) {
                String v = args[i + 1];
                switch (args[i]) {
                    case "--seconds" -> seconds = Double.parseDouble(v);
                    case "--warmup-ms" -> warmupMs = Long.parseLong(v);
                    case "--jit-warmup-ms" -> jitWarmupMs = Long.parseLong(v);
                    case "--process-jit-warmup-ms" -> processJitWarmupMs = Long.parseLong(v);
                    case "--rounds" -> rounds = Integer.parseInt(v);
                    case "--callers" -> callers = Arrays.stream(v.split(",")).map(Integer::valueOf).toList();
                    case "--stores" -> stores = List.of(v.split(","));
                    case "--processes" -> processes = Integer.parseInt(v);
                    case "--ops" -> ops = Arrays.stream(v.split(",")).map(s -> Op.valueOf(s.toUpperCase(Locale.ROOT)))
                            .toList();
                    case "--out" -> out = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (args.length % 2 != 0) {
                throw new IllegalArgumentException("options come in pairs: --name value");
            }
            if (rounds < 1) {
                throw new IllegalArgumentException("--rounds must be at least 1, was " + rounds);
            }
            return new Options(seconds, warmupMs, jitWarmupMs, processJitWarmupMs, rounds, callers, stores, processes,
                    ops, out);
        }

        int maxCallers() {
            return callers.stream().mapToInt(Integer::intValue).max().orElse(1);
        }
    }

    /** Runs the benchmark. */
    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        out.printf(Locale.ROOT, "Hybris f=1 over three in-memory clouds vs the raw metadata client, 1 KiB values, each"
                        + " caller on its own %d keys; %s s measured per point after %d ms of warm-up; %d cores, Java"
                        + " %s%n%n", ScalabilitySides.KEYS_PER_CALLER, formatSeconds(options.seconds()), options.warmupMs(),
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        List<Row> rows = run(options, out);
        out.println();
        out.println("Lowest paired Hybris/raw ratio per store, mode and operation:");
        out.println();
        out.println("| store | mode | op | lowest paired ratio | at callers |");
        out.println("|---|---|---|---|---|");
        rows.stream().map(r -> r.store() + " " + r.mode() + " " + r.op()).distinct().forEach(group -> {
            Row worst = rows.stream().filter(r -> (r.store() + " " + r.mode() + " " + r.op()).equals(group))
                    .min((a, b) -> Double.compare(a.pairedRatio(), b.pairedRatio())).orElseThrow();
            out.printf(Locale.ROOT, "| %s | %s | %s | %.2f (pooled %.2f) | %d |%n", worst.store(), worst.mode(),
                    worst.op(), worst.pairedRatio(), worst.ratio(), worst.callers());
        });
        System.exit(0); // client libraries may leave non-daemon threads behind
    }

    /** Runs every store of {@code options}, printing each row as it is measured; returns the rows. */
    static List<Row> run(Options options, PrintStream out) throws Exception {
        out.println("| store | mode | op | callers | Hybris ops/s | raw ops/s | Hybris/raw pooled | Hybris/raw paired"
                + " (range) | Hybris p50 / p99 ms | raw p50 / p99 ms | CPU µs/op H / raw | errors H / raw |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
        List<Row> rows = new ArrayList<>();
        for (String store : options.stores()) {
            try (Deployment deployment = Deployment.start(store)) {
                rows.addAll(runStore(store, deployment, options, out));
            }
            writeCsv(options, rows);
        }
        return rows;
    }

    private static void writeCsv(Options options, List<Row> rows) throws IOException {
        if (options.out() == null) {
            return;
        }
        List<String> lines = new ArrayList<>();
        lines.add(CSV_HEADER);
        rows.forEach(r -> lines.addAll(r.csv()));
        Files.createDirectories(options.out());
        Files.write(options.out().resolve("results.csv"), lines, StandardCharsets.UTF_8);
    }

    /** One measured slice of one side ({@code hybris} or {@code raw}), {@code measureMs} long. */
    @FunctionalInterface
    private interface Slice {
        Result run(String side, long measureMs) throws Exception;
    }

    /**
     * One point: each side measured in {@code rounds} slices that add up to {@code seconds}, in the order A B B A
     * A B B A ...; which side is A alternates from one row to the next.
     */
    private static Row measure(String store, String mode, Op op, int callers, int row, Options options, Slice slice)
            throws Exception {
        long sliceMs = Math.max(1, Math.round(options.seconds() * 1000 / options.rounds()));
        String a = row % 2 == 0 ? "hybris" : "raw";
        String b = row % 2 == 0 ? "raw" : "hybris";
        List<Result> hybris = new ArrayList<>();
        List<Result> raw = new ArrayList<>();
        double[] pairs = new double[options.rounds()];
        for (int turn = 0; turn < 2 * options.rounds(); turn++) {
            String side = turn % 4 == 0 || turn % 4 == 3 ? a : b;
            (side.equals("hybris") ? hybris : raw).add(slice.run(side, sliceMs));
            if (turn % 2 == 1) { // turns 2k and 2k+1 are one slice of each side, back to back
                pairs[turn / 2] = hybris.get(turn / 2).perSecond() / raw.get(turn / 2).perSecond();
            }
        }
        return new Row(store, mode, op, callers, Result.sequential(hybris), Result.sequential(raw), pairs);
    }

    private static List<Row> runStore(String store, Deployment d, Options options, PrintStream out) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (Side hybris = ScalabilitySides.open("hybris", d.kind(), d.endpoint(), "t");
             Side raw = ScalabilitySides.open("raw", d.kind(), d.endpoint(), "t")) {
            hybris.preload(options.maxCallers());
            raw.preload(options.maxCallers());
            int row = 0;
            for (Op op : options.ops()) {
                JitWarmUp.interleaved(options.jitWarmupMs(), THREADS_WARMUP_CHUNK_MS,
                        Math.min(4, options.maxCallers()),
                        (side, callers, ms) -> ScalabilityLoad.run(side.equals("hybris") ? hybris : raw, op, 0,
                                callers, 0, ms));
                for (int n : options.callers()) {
                    rows.add(print(out, measure(store, "threads", op, n, row++, options,
                            (side, slice) -> ScalabilityLoad.run(side.equals("hybris") ? hybris : raw, op, 0, n,
                                    options.warmupMs(), slice))));
                }
            }
        }
        int p = options.processes();
        List<Integer> spread = options.callers().stream().filter(n -> p > 0 && n >= p && n % p == 0).toList();
        if (spread.isEmpty()) {
            return rows;
        }
        int maxEach = spread.stream().mapToInt(Integer::intValue).max().orElseThrow() / p;
        try (ScalabilityWorker.Processes workers = new ScalabilityWorker.Processes(p, d.kind(), d.endpoint(),
                maxEach)) {
            int row = 0;
            for (Op op : options.ops()) {
                JitWarmUp.interleaved(options.processJitWarmupMs(), PROCESS_WARMUP_CHUNK_MS, Math.min(4, maxEach),
                        (side, callers, ms) -> workers.run(side, op, callers, 0, ms));
                for (int n : spread) {
                    rows.add(print(out, measure(store, p + " processes", op, n, row++, options,
                            (side, slice) -> workers.run(side, op, n / p, options.warmupMs(), slice))));
                }
            }
        }
        return rows;
    }

    private static String formatSeconds(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }

    private static Row print(PrintStream out, Row row) {
        out.println(row.markdown());
        return row;
    }

    /** A running metadata store: one ZooKeeper server, a 3-server ensemble, or a Consul dev agent. */
    private static final class Deployment implements AutoCloseable {
        private final StoreKind kind;
        private final String endpoint;
        private final AutoCloseable resource;

        private Deployment(StoreKind kind, String endpoint, AutoCloseable resource) {
            this.kind = kind;
            this.endpoint = endpoint;
            this.resource = resource;
        }

        static Deployment start(String store) throws Exception {
            switch (store) {
                case "zookeeper" -> {
                    EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(Files.createTempDirectory("hybris-scale-zk"), 0);
                    return new Deployment(StoreKind.ZOOKEEPER, zk.connectString(), zk);
                }
                case "ensemble" -> {
                    // as the reliability campaign's ensemble: retry a busy election port, never exit this JVM
                    if (System.getProperty("zookeeper.electionPortBindRetry") == null) {
                        System.setProperty("zookeeper.electionPortBindRetry", "30");
                    }
                    List<InstanceSpec> specs = new ArrayList<>(); // below the ephemeral range: see ServerPorts
                    for (int i = 0; i < 3; i++) {
                        specs.add(new InstanceSpec(null, ServerPorts.next(), ServerPorts.next(), ServerPorts.next(),
                                true, -1));
                    }
                    TestingCluster cluster = new TestingCluster(specs);
                    cluster.start(); // curator-test's embedded servers set System.exit on start: set it back after
                    org.apache.zookeeper.util.ServiceUtils.setSystemExitProcedure(
                            org.apache.zookeeper.util.ServiceUtils.LOG_ONLY);
                    try {
                        return new Deployment(StoreKind.ZOOKEEPER, "127.0.0.1:" + follower(cluster), cluster);
                    } catch (RuntimeException | InterruptedException e) {
                        cluster.close();
                        throw e;
                    }
                }
                case "consul" -> {
                    // Consul refuses more than 200 HTTP connections per client address by default; the callers
                    // (all on loopback) need up to one each
                    ConsulTestAgent agent = ConsulTestAgent.dev("limits { http_max_conns_per_client = 4096 }\n");
                    return new Deployment(StoreKind.CONSUL, agent.address(), agent);
                }
                default -> throw new IllegalArgumentException("unknown store " + store
                        + " (zookeeper, ensemble or consul)");
            }
        }

        /** The port of a follower, once the ensemble has a leader: both sides' clients connect to it. */
        private static int follower(TestingCluster cluster) throws InterruptedException {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline) {
                Integer follower = null;
                boolean leader = false;
                for (TestingZooKeeperServer server : cluster.getServers()) {
                    int port = server.getInstanceSpec().getPort();
                    if (ZooKeeperStatus.isLeader(port)) {
                        leader = true;
                    } else if (ZooKeeperStatus.srvr(port).contains("Mode: follower")) {
                        follower = port;
                    }
                }
                if (leader && follower != null) {
                    return follower;
                }
                Thread.sleep(100); // polling the servers' status; nothing to wait on
            }
            throw new IllegalStateException("the ZooKeeper ensemble elected no leader within 60 s");
        }

        StoreKind kind() {
            return kind;
        }

        String endpoint() {
            return endpoint;
        }

        @Override
        public void close() throws Exception {
            resource.close();
        }
    }
}
