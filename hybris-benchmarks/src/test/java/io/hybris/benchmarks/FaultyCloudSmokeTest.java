/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.testkit.TestEnvironment;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seconds-long smoke version of {@link FaultyCloudRun} (bench/faulty-cloud.sh) that CI runs on the emulators:
 * a dozen GETs per fault scenario, a hundred tail GETs per hedging mode, and the start-up placement rows. Every GET
 * in it checks the bytes it got against the value written, so the rows prove the faults were survived; it checks
 * that the benchmark runs and prints every row, not how fast anything is.
 *
 * <p>When the run fails, the failure says whether each emulator still answers, directly and through its proxy, and
 * the Azure driver's threads are printed: a GET of this run failed in CI twice with its good copy's cloud (Azure)
 * unanswered for a minute, which these tell apart (emulator, proxy or client).
 */
class FaultyCloudSmokeTest {
    @Test
    void everyScenarioRunsAndPrintsItsRow() throws Exception {
        TestEnvironment env = TestEnvironment.require();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try {
            FaultyCloudRun.run(env, 12, 100, 2, new PrintStream(printed, true, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            printDriverThreads();
            throw new AssertionError("the faulty-cloud run failed; the emulators now: " + emulators(env), e);
        }
        List<String> rows = printed.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("| "))
                .filter(l -> !l.startsWith("| fault") && !l.startsWith("| hedge |") && !l.startsWith("| probe"))
                .toList();
        assertThat(rows).extracting(l -> l.split(" \\| ")[0].substring(2)).containsExactly(
                "corrupt", "corrupt", "stale", "hang", "hang", "off (paper timer)", "on", "on, min-delay 20 ms", "false", "auto", "true");
    }

    /** How each emulator answers an unauthenticated request now, directly and through its proxy. */
    private static String emulators(TestEnvironment env) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        return "azurite " + probe(http, env.azuriteEndpoint()) + ", via proxy " + probe(http, env.azuriteProxy())
                + "; minio " + probe(http, env.minioEndpoint()) + ", via proxy " + probe(http, env.minioProxy())
                + "; fake-gcs " + probe(http, env.gcsEndpoint()) + ", via proxy " + probe(http, env.gcsProxy());
    }

    private static String probe(HttpClient http, URI endpoint) {
        long t0 = System.nanoTime();
        try {
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.discarding());
            return "HTTP " + r.statusCode() + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms";
        } catch (Exception e) {
            return e + " after " + (System.nanoTime() - t0) / 1_000_000 + " ms";
        }
    }

    private static void printDriverThreads() {
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            if (t.getThreadName().startsWith("hybris") || t.getThreadName().startsWith("HttpClient")) {
                StringBuilder b = new StringBuilder(t.getThreadName() + " " + t.getThreadState());
                for (StackTraceElement frame : t.getStackTrace()) {
                    b.append("\n    at ").append(frame);
                }
                System.out.println(b);
            }
        }
    }
}
