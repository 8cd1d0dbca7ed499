/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.StartupProbe;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.EmulatedClouds.Kind;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Start-up placement (the performance issue's item 6): a client opened as from a properties file, its clouds made
 * from their types with ids in sorted order — azure (30 ms), gcs (40 ms), s3 (20 ms), the worst order for these
 * latencies — PUTs and then GETs right after opening, for each {@code hybris.ranking.probe-on-open} setting: how long
 * opening took, the first PUT and GET, and the mean of the first 20 of each. Without a probe the writes land on azure
 * and gcs and the reads come from azure until the periodic probe (5 minutes by default) measures s3.
 */
final class StartupPlacementRun {
    private static final int OPS = 20;

    private StartupPlacementRun() {
    }

    static void run(EmulatedClouds clouds, String connect, String runPrefix, PrintStream out) {
        out.println("| probe-on-open | open ms | first PUT ms | mean of first 20 PUTs ms | first GET ms |"
                + " mean of first 20 GETs ms | clouds of the 20th value |");
        out.println("|---|---|---|---|---|---|---|");
        for (StartupProbe probe : new StartupProbe[] {StartupProbe.OFF, StartupProbe.AUTO, StartupProbe.WAIT}) {
            String prefix = runPrefix + "startup-" + probe.value();
            HybrisConfig config = HybrisConfig.builder().f(1)
                    .metadataStore("zookeeper", Map.of("connect", connect, "root", "/" + prefix.replace('/', '-')))
                    .cloud("azure", "azure", clouds.options(Kind.AZURE, prefix + "/"))
                    .cloud("gcs", "gcs", clouds.options(Kind.GCS, prefix + "/"))
                    .cloud("s3", "s3", clouds.options(Kind.S3, prefix + "/"))
                    .startupProbe(probe).deadline(Duration.ofSeconds(60)).build();
            long t0 = System.nanoTime();
            try (Hybris h = Hybris.open(config)) {
                long open = System.nanoTime() - t0;
                Random random = new Random(3);
                long[] puts = new long[OPS];
                long[] gets = new long[OPS];
                byte[] value = new byte[16 << 10];
                for (int i = 0; i < OPS; i++) {
                    random.nextBytes(value);
                    long s = System.nanoTime();
                    h.put("box", "k" + i, value);
                    puts[i] = System.nanoTime() - s;
                }
                for (int i = 0; i < OPS; i++) {
                    long s = System.nanoTime();
                    h.get("box", "k" + i).orElseThrow();
                    gets[i] = System.nanoTime() - s;
                }
                out.printf(Locale.ROOT, "| %s | %.0f | %.1f | %.1f | %.1f | %.1f | %s |%n", probe.value(),
                        open / 1e6, puts[0] / 1e6, Arrays.stream(puts).average().orElse(0) / 1e6, gets[0] / 1e6,
                        Arrays.stream(gets).average().orElse(0) / 1e6,
                        h.describe("box", "k" + (OPS - 1)).orElseThrow().clouds());
            }
        }
    }
}
