/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.CloudStatus;
import io.hybris.Hybris;
import io.hybris.spi.support.ConfigValues;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/** {@code hybris bench}: a quick latency table, per cloud (from the probe) and through Hybris (measured). */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"A quick latency check, one request at a time: probe every cloud, then PUT and GET N "
                + "values of SIZE bytes through Hybris (keys under bench/ in CONTAINER, deleted afterwards).",
                "Per cloud it shows the latency estimates of Hybris's ranking after the run (the probe's "
                        + "measurements and the run's own cloud calls), not separate timed requests to each "
                        + "cloud; through Hybris it shows measured percentiles. Not a load test: see bench/ and "
                        + "docs/benchmarks.md for those."})
final class BenchCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Option(names = {"-n", "--count"}, paramLabel = "N", defaultValue = "20",
            description = "PUTs and GETs to time (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", defaultValue = "4KiB",
            description = "Value size, e.g. 4KiB, 1MiB (default: ${DEFAULT-VALUE}).")
    String size;

    @Option(names = "--container", paramLabel = "CONTAINER", defaultValue = "hybris-bench",
            description = "Container for the bench keys (default: ${DEFAULT-VALUE}).")
    String container;

    @Override
    public Integer call() {
        if (count < 1 || count > 10_000) {
            throw CliException.usage("--count must be between 1 and 10000, not " + count);
        }
        long bytes;
        try {
            bytes = ConfigValues.parseSize("--size", size);
        } catch (RuntimeException e) {
            throw CliException.usage("--size " + size + " is not a size (e.g. 4096, 4KiB, 1MiB)");
        }
        if (bytes < 1 || bytes > (64L << 20)) {
            throw CliException.usage("--size must be between 1 byte and 64MiB, not " + size);
        }
        Session session = root.session;
        Hybris hybris = session.hybris();
        hybris.refreshLatencyRanking();
        String run = Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
        List<Duration> puts = new ArrayList<>();
        List<Duration> gets = new ArrayList<>();
        BenchKeys keys = new BenchKeys(hybris, container);
        Thread cleanup = new Thread(keys::stop, "hybris-bench-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup); // Ctrl-C, SIGTERM: the keys written so far go too
        try (Progress progress = session.task("bench: " + count + " PUTs and GETs of " + Sizes.bytes(bytes))) {
            byte[] value = new byte[(int) bytes];
            List<String> written = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ThreadLocalRandom.current().nextBytes(value);
                String key = "bench/" + run + "-" + i;
                written.add(key);
                puts.add(keys.timed(key, () -> hybris.put(container, key, value)));
            }
            for (String key : written) {
                gets.add(keys.timed(null, () -> hybris.get(container, key)
                        .orElseThrow(() -> new IllegalStateException(key + " vanished"))));
            }
        } finally {
            try {
                keys.deleteAll();
            } finally {
                // only now: a SIGTERM while the keys are deleted must wait for the deletions, not end them
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException e) {
                    // shutting down: the hook deletes what is left
                }
            }
        }
        List<CloudStatus> clouds = hybris.cloudStatus();
        Stats put = Stats.of(puts);
        Stats get = Stats.of(gets);
        Map<String, Object> through = new LinkedHashMap<>();
        through.put("put", put.json());
        through.put("get", get.json());
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("count", count);
        doc.put("size", bytes);
        doc.put("hybris", through);
        doc.put("clouds", clouds.stream().map(CloudView::json).toList());
        session.emit(doc, () -> {
            session.out().println("per cloud (latency estimates for small values, after the run):");
            CloudView.table(clouds).print(session.out());
            session.out().println();
            session.out().println("through Hybris (" + count + " sequential operations of " + Sizes.bytes(bytes)
                    + "):");
            Table t = new Table("OP", "P50", "P90", "P99", "MAX", "MEAN");
            t.row("PUT", Sizes.millis(put.p50()), Sizes.millis(put.p90()), Sizes.millis(put.p99()),
                    Sizes.millis(put.max()), Sizes.millis(put.mean()));
            t.row("GET", Sizes.millis(get.p50()), Sizes.millis(get.p90()), Sizes.millis(get.p99()),
                    Sizes.millis(get.max()), Sizes.millis(get.mean()));
            t.print(session.out());
        });
        return ExitCode.OK;
    }

    /** Percentiles (nearest rank), maximum and mean of a sample. */
    record Stats(Duration p50, Duration p90, Duration p99, Duration max, Duration mean) {
        static Stats of(List<Duration> sample) {
            List<Duration> sorted = new ArrayList<>(sample);
            sorted.sort(null);
            long total = sorted.stream().mapToLong(Duration::toNanos).sum();
            return new Stats(pct(sorted, 50), pct(sorted, 90), pct(sorted, 99), sorted.get(sorted.size() - 1),
                    Duration.ofNanos(total / sorted.size()));
        }

        private static Duration pct(List<Duration> sorted, int p) {
            int rank = (int) Math.ceil(p / 100.0 * sorted.size());
            return sorted.get(Math.max(0, rank - 1));
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("p50Ms", Sizes.millisValue(p50));
            m.put("p90Ms", Sizes.millisValue(p90));
            m.put("p99Ms", Sizes.millisValue(p99));
            m.put("maxMs", Sizes.millisValue(max));
            m.put("meanMs", Sizes.millisValue(mean));
            return m;
        }
    }
}
