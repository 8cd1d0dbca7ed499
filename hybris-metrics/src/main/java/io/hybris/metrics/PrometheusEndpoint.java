/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * A Prometheus scrape endpoint on the JDK's HTTP server: {@code GET /metrics} answers with the registry in the
 * Prometheus text format (0.0.4). For long-running processes (a gateway, a sync daemon, the CLI's daemon mode);
 * the server has two threads and serves nothing else; a client that takes longer than 30 seconds to send its request
 * and read the answer is cut off, so a stuck connection cannot stop the scrapes. Close it to stop serving.
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(new InetSocketAddress("127.0.0.1", 9464), registry)) {
 *     ... // scrape http://127.0.0.1:9464/metrics
 * }
 * }</pre>
 */
public final class PrometheusEndpoint implements AutoCloseable {
    /** The path served. */
    public static final String PATH = "/metrics";
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final int THREADS = 2;
    private static final Duration EXCHANGE_LIMIT = Duration.ofSeconds(30);

    private final HttpServer server;
    private final ExchangeThreads threads;

    private PrometheusEndpoint(HttpServer server, ExchangeThreads threads) {
        this.server = server;
        this.threads = threads;
    }

    /**
     * Starts serving {@code registry} at {@code address} (port 0: a free port, see {@link #address()}).
     *
     * @throws UncheckedIOException if the address cannot be bound
     */
    public static PrometheusEndpoint start(InetSocketAddress address, PrometheusMeterRegistry registry) {
        return start(address, registry, EXCHANGE_LIMIT);
    }

    /** As {@link #start(InetSocketAddress, PrometheusMeterRegistry)}; exchanges taking over {@code limit} are cut. */
    static PrometheusEndpoint start(InetSocketAddress address, PrometheusMeterRegistry registry, Duration limit) {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(registry, "registry");
        HttpServer server;
        try {
            server = HttpServers.bind(HttpServer.create(), address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on " + address + ": " + e.getMessage(), e);
        }
        server.createContext(PATH, exchange -> serve(exchange, registry));
        ExchangeThreads threads = new ExchangeThreads(THREADS, limit);
        server.setExecutor(threads);
        server.start();
        return new PrometheusEndpoint(server, threads);
    }

    private static void serve(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            if (method.equals("HEAD")) {
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** The address served, with the port actually bound. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** Stops serving at once. */
    @Override
    public void close() {
        server.stop(0);
        threads.close();
    }
}
