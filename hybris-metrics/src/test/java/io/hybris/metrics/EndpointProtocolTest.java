/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** What docs/metrics.md promises of the endpoint's HTTP: HEAD, 405 with Allow, 404 for any other path, daemon threads. */
class EndpointProtocolTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final HttpClient http = HttpClient.newHttpClient();
    private PrometheusEndpoint endpoint;
    private URI uri;

    @BeforeEach
    void start() {
        new HybrisMetrics(registry);
        endpoint = PrometheusEndpoint.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), registry);
        uri = URI.create("http://127.0.0.1:" + endpoint.address().getPort() + "/metrics");
    }

    @AfterEach
    void stop() {
        endpoint.close();
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void headAnswersLikeGetWithoutABody() throws Exception {
        HttpResponse<String> head = send(HttpRequest.newBuilder(uri).method("HEAD",
                HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(head.body()).isEmpty();
    }

    @Test
    void otherMethodsAre405WithAllow() throws Exception {
        HttpResponse<String> put = send(HttpRequest.newBuilder(uri).PUT(HttpRequest.BodyPublishers.ofString("x")));
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(put.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }

    @Test
    void pathsBelowOrBesideMetricsAre404() throws Exception {
        assertThat(send(HttpRequest.newBuilder(uri.resolve("/metrics/extra"))).statusCode()).isEqualTo(404);
        assertThat(send(HttpRequest.newBuilder(uri.resolve("/metricsz"))).statusCode()).isEqualTo(404);
        assertThat(send(HttpRequest.newBuilder(uri)).statusCode()).isEqualTo(200);
    }

    @Test
    void theEndpointsThreadsAreDaemons() throws Exception {
        assertThat(send(HttpRequest.newBuilder(uri)).statusCode()).isEqualTo(200); // starts a worker and the alarm
        var threads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("hybris-metrics-http")).toList();
        assertThat(threads).extracting(Thread::getName)
                .contains("hybris-metrics-http-limit").anyMatch(n -> n.matches("hybris-metrics-http-\\d+"));
        assertThat(threads).as("a process that forgets close() must still exit").allMatch(Thread::isDaemon);
    }
}
