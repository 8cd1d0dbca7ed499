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
import io.hybris.testkit.ZooKeeperStatus;
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
 * with its own Hybris client and raw client). Hybris and raw alternate which goes first from one row to the next.
 *
 * <p>Usage: {@code ScalabilityBenchmark [--seconds 4] [--warmup-ms 1000 (per point and side)] [--jit-warmup-ms 10000
 * (once per side and op, before the first row, in each mode)] [--callers 1,4,16,64,256]
 * [--stores zookeeper,ensemble,consul] [--processes 4 (0: none)] [--ops GET,PUT] [--out <dir>]}; Consul needs
 * {@code -Dhybris.test.consul=<consul binary>}. Prints a markdown table; with {@code --out}, also writes
 * {@code results.csv} there ({@code bench/scalability.sh} plots it).
 */
public final class ScalabilityBenchmark {
    /** The CSV header of {@code results.csv}. */
    static final String CSV_HEADER = "store,mode,op,callers,side,ops_per_s,p50_ms,p99_ms,errors";

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
    record Row(String store, String mode, Op op, int callers, Result hybris, Result raw) {
        double ratio() {
            return hybris.perSecond() / raw.perSecond();
        }

        String markdown() {
            return String.format(Locale.ROOT, "| %s | %s | %s | %d | %,.0f | %,.0f | **%.2f** | %.2f / %.2f | %.2f / %.2f"
                    + " | %d / %d |", store, mode, op, callers, hybris.perSecond(), raw.perSecond(), ratio(),
                    hybris.percentileMs(50), hybris.percentileMs(99), raw.percentileMs(50), raw.percentileMs(99),
                    hybris.errors(), raw.errors());
        }

        List<String> csv() {
            List<String> lines = new ArrayList<>();
            for (Result r : List.of(hybris, raw)) {
                lines.add(String.format(Locale.ROOT, "%s,%s,%s,%d,%s,%.1f,%.3f,%.3f,%d", store, mode, op, callers,
                        r == hybris ? "hybris" : "raw", r.perSecond(), r.percentileMs(50), r.percentileMs(99),
                        r.errors()));
            }
            return lines;
        }
    }

    /** What to run; see the class comment for the defaults. */
    record Options(double seconds, long warmupMs, long jitWarmupMs, List<Integer> callers, List<String> stores,
                   int processes, List<Op> ops, Path out) {
        static Options parse(String... args) {
            double seconds = 4;
            long warmupMs = 1000;
            // the first load of each side and op, before any row: long enough for the JIT to compile Hybris's path
            // in every client JVM (4 child JVMs on 2 cores: with 2 s the first process rows measured Hybris half
            // compiled, 0.38-0.58x raw, against 0.73-0.94x after 10 s; docs/benchmarks.md, 2026-11-25)
            long jitWarmupMs = 10_000;
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
            return new Options(seconds, warmupMs, jitWarmupMs, callers, stores, processes, ops, out);
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
        out.println("Lowest Hybris/raw ratio per store, mode and operation:");
        out.println();
        out.println("| store | mode | op | lowest ratio | at callers |");
        out.println("|---|---|---|---|---|");
        rows.stream().map(r -> r.store() + " " + r.mode() + " " + r.op()).distinct().forEach(group -> {
            Row worst = rows.stream().filter(r -> (r.store() + " " + r.mode() + " " + r.op()).equals(group))
                    .min((a, b) -> Double.compare(a.ratio(), b.ratio())).orElseThrow();
            out.printf(Locale.ROOT, "| %s | %s | %s | %.2f | %d |%n", worst.store(), worst.mode(), worst.op(),
                    worst.ratio(), worst.callers());
        });
        System.exit(0); // client libraries may leave non-daemon threads behind
    }

    /** Runs every store of {@code options}, printing each row as it is measured; returns the rows. */
    static List<Row> run(Options options, PrintStream out) throws Exception {
        out.println("| store | mode | op | callers | Hybris ops/s | raw ops/s | Hybris/raw | Hybris p50 / p99 ms"
                + " | raw p50 / p99 ms | errors H / raw |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
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

    private static List<Row> runStore(String store, Deployment d, Options options, PrintStream out) throws Exception {
        List<Row> rows = new ArrayList<>();
        long measureMs = Math.round(options.seconds() * 1000);
        try (Side hybris = ScalabilitySides.open("hybris", d.kind(), d.endpoint(), "t");
             Side raw = ScalabilitySides.open("raw", d.kind(), d.endpoint(), "t")) {
            hybris.preload(options.maxCallers());
            raw.preload(options.maxCallers());
            int warmers = Math.min(4, options.maxCallers());
            for (Op op : options.ops()) { // warms up the JIT on both sides before the first row
                ScalabilityLoad.run(hybris, op, 0, warmers, 0, options.jitWarmupMs());
                ScalabilityLoad.run(raw, op, 0, warmers, 0, options.jitWarmupMs());
            }
            int row = 0;
            for (Op op : options.ops()) {
                for (int n : options.callers()) {
                    Result h = null;
                    Result r = null;
                    for (int turn = 0; turn < 2; turn++) {
                        if ((turn + row) % 2 == 0) {
                            h = ScalabilityLoad.run(hybris, op, 0, n, options.warmupMs(), measureMs);
                        } else {
                            r = ScalabilityLoad.run(raw, op, 0, n, options.warmupMs(), measureMs);
                        }
                    }
                    row++;
                    rows.add(print(out, new Row(store, "threads", op, n, h, r)));
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
            for (Op op : options.ops()) {
                workers.run("hybris", op, Math.min(4, maxEach), 0, options.jitWarmupMs());
                workers.run("raw", op, Math.min(4, maxEach), 0, options.jitWarmupMs());
            }
            int row = 0;
            for (Op op : options.ops()) {
                for (int n : spread) {
                    Result h = null;
                    Result r = null;
                    for (int turn = 0; turn < 2; turn++) {
                        if ((turn + row) % 2 == 0) {
                            h = workers.run("hybris", op, n / p, options.warmupMs(), measureMs);
                        } else {
                            r = workers.run("raw", op, n / p, options.warmupMs(), measureMs);
                        }
                    }
                    row++;
                    rows.add(print(out, new Row(store, p + " processes", op, n, h, r)));
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
                    org.apache.zookeeper.util.ServiceUtils.setSystemExitProcedure(
                            org.apache.zookeeper.util.ServiceUtils.LOG_ONLY);
                    TestingCluster cluster = new TestingCluster(3);
                    cluster.start();
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
