/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A client that opens a connection and never finishes its request must not keep the endpoint from others. */
class EndpointStuckClientTest {

    @Test
    void aStuckConnectionDoesNotBlockOtherScrapes() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), registry);
             Socket stuck = new Socket(InetAddress.getLoopbackAddress(), endpoint.address().getPort())) {
            OutputStream out = stuck.getOutputStream();
            out.write("GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            HttpClient http = HttpClient.newHttpClient();
            URI uri = URI.create("http://127.0.0.1:" + endpoint.address().getPort() + "/metrics");
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aConnectionThatNeverFinishesItsRequestIsCutOffAfterTheLimit() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), registry, Duration.ofMillis(300))) {
            Socket[] stuck = new Socket[4];
            for (int i = 0; i < stuck.length; i++) { // more than the endpoint's threads
                stuck[i] = new Socket(InetAddress.getLoopbackAddress(), endpoint.address().getPort());
                stuck[i].getOutputStream().write("GET /metrics HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
                stuck[i].getOutputStream().flush();
            }
            for (Socket s : stuck) {
                s.setSoTimeout(10_000);
                assertThat(s.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
                s.close();
            }
            HttpClient http = HttpClient.newHttpClient();
            URI uri = URI.create("http://127.0.0.1:" + endpoint.address().getPort() + "/metrics");
            assertThat(http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
    }
}
