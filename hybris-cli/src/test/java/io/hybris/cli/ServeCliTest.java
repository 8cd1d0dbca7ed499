/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hybris serve} in a spawned process on the embedded default: it prints its metrics URL, serves the
 * Prometheus text format there (with the metadata-store calls its client made while opening and probing), and
 * stops on SIGTERM (with the JVM's status for it, 143, after closing its client).
 */
class ServeCliTest {
    @TempDir
    Path data;

    @Test
    void servesPrometheusMetricsUntilStopped() throws Exception {
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "serve", "--metrics-port", "0"));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(120, TimeUnit.SECONDS);
            assertThat(line).startsWith("serving metrics on http://127.0.0.1:").contains("/metrics");
            String url = line.substring("serving metrics on ".length(), line.indexOf(" ("));
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(
                    t -> assertThat(t).startsWith("text/plain"));
            assertThat(scrape.body()).contains("hybris_");
        } finally {
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            p.destroyForcibly();
        }
    }
}
