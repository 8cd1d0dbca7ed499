/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The scrape endpoint serves the registry in the Prometheus text format, with the Hybris meters in it. */
class PrometheusEndpointTest {

    @Test
    void servesTheMetersInTheTextFormat() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .probeInterval(Duration.ZERO).listener(new HybrisMetrics(registry));
        for (int i = 0; i < 3; i++) {
            b.cloud(new InMemoryCloudStore("c" + i));
        }
        HttpClient http = HttpClient.newHttpClient();
        try (Hybris h = Hybris.open(b.build());
             PrometheusEndpoint endpoint = PrometheusEndpoint.start(
                     new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), registry)) {
            h.put("photos", "cat.jpg", new byte[1234]);
            assertThat(h.get("photos", "cat.jpg")).isPresent();
            assertThat(h.get("photos", "dog.jpg")).isEmpty();

            URI uri = URI.create("http://127.0.0.1:" + endpoint.address().getPort() + "/metrics");
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t ->
                    assertThat(t).startsWith("text/plain").contains("version=0.0.4"));
            String body = r.body();
            assertThat(body)
                    .contains("# TYPE hybris_operations_seconds histogram")
                    .contains("hybris_operations_seconds_count{op=\"put\",outcome=\"ok\"} 1")
                    .contains("hybris_operations_seconds_count{op=\"get\",outcome=\"ok\"} 1")
                    .contains("hybris_operations_seconds_count{op=\"get\",outcome=\"not_found\"} 1")
                    .contains("# TYPE hybris_cloud_requests_total counter")
                    .contains("hybris_cloud_latency_seconds_bucket{")
                    .contains("hybris_metadata_calls_seconds_count{op=\"update\",outcome=\"ok\"} 1")
                    .contains("hybris_get_worst_case_total 0");
            assertThat(body.lines().filter(l -> l.startsWith("hybris_cloud_bytes_total{")
                    && l.contains("direction=\"out\"")).mapToDouble(l -> Double.parseDouble(l.substring(
                    l.lastIndexOf(' ') + 1))).sum()).isEqualTo(2 * 1234);
            assertThat(body.lines().filter(l -> l.startsWith("hybris_cloud_requests_total{")
                    && l.contains("op=\"put\"")).mapToDouble(l -> Double.parseDouble(l.substring(
                    l.lastIndexOf(' ') + 1))).sum()).isEqualTo(2);

            HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
            HttpResponse<String> other = http.send(HttpRequest.newBuilder(
                    uri.resolve("/other")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(other.statusCode()).isEqualTo(404);
        }
    }
}
