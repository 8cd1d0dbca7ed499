/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The scrape endpoint started and stopped many times in one JVM, stopped with a client connected, and started on
 * a port in use: each leaves no thread, socket or bound port behind (the lifecycle hunt found a socket kept open
 * per start on a port in use).
 */
class EndpointLifecycleTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final InetSocketAddress anyPort = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @BeforeEach
    void warmUp() {
        PrometheusEndpoint.start(anyPort, registry).close(); // the JDK server's classes, before any count
    }

    @Test
    void startedAndStoppedManyTimesWithAClientConnectedLeavesNothing() throws Exception {
        long threadsBefore = endpointThreads();
        long filesBefore = openFiles();
        int port = 0;
        for (int i = 0; i < 50; i++) {
            try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port), registry);
                 Socket client = new Socket(InetAddress.getLoopbackAddress(), endpoint.address().getPort())) {
                port = endpoint.address().getPort(); // the same port again: the stopped endpoint released it
                OutputStream out = client.getOutputStream();
                out.write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = client.getInputStream();
                assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
                // the connection stays open (keep-alive) while the endpoint stops
            }
        }
        // at most as many as before: a thread of an earlier test's server still ending when counted may be gone now
        await().atMost(Duration.ofSeconds(10)).until(() -> endpointThreads() <= threadsBefore);
        if (Files.isDirectory(Path.of("/proc/self/fd"))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> openFiles() <= filesBefore);
        }
    }

    @Test
    void aPortInUseLeavesNoSocketOpen() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts open files on Linux");
        try (ServerSocket busy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            InetSocketAddress taken = new InetSocketAddress(InetAddress.getLoopbackAddress(), busy.getLocalPort());
            long before = openFiles();
            for (int i = 0; i < 20; i++) {
                assertThatThrownBy(() -> PrometheusEndpoint.start(taken, registry))
                        .isInstanceOf(UncheckedIOException.class)
                        .hasMessageStartingWith("cannot serve metrics on " + taken);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> openFiles() <= before);
        }
    }

    /** The endpoint's own threads and the JDK server's dispatcher and timer threads. */
    private static long endpointThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("hybris-metrics-http") || n.startsWith("HTTP-Dispatcher")
                        || n.equals("idle-timeout-task") || n.equals("server-timer"))
                .count();
    }

    private static long openFiles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
