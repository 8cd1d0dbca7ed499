/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.testkit.ServerPorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A gateway that fails to start leaves nothing behind: no socket, no listening port, no server thread. Found by
 * the lifecycle hunt: a start on a port in use kept a socket open per attempt, and a start with a key store that
 * could not be read kept the port bound (and the JDK server's timer thread), so starting again with the right
 * password on that port failed with "Address already in use".
 */
class GatewayStartFailureTest {
    @TempDir
    Path dir;
    private Hybris hybris;

    @BeforeEach
    void open() {
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore());
        List.of("c0", "c1", "c2").forEach(id -> config.cloud(new InMemoryCloudStore(id)));
        hybris = Hybris.open(config.build());
        // the JDK server's classes and first selector, before any count is taken
        S3Gateway.builder(hybris).port(0).credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start()
                .close();
    }

    @AfterEach
    void close() {
        hybris.close();
    }

    @Test
    void aPortInUseLeavesNoSocketOpen() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts open files on Linux");
            long before = openFiles();
            for (int i = 0; i < 20; i++) {
                assertThatThrownBy(() -> S3Gateway.builder(hybris).port(busy.getLocalPort())
                        .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start())
                        .isInstanceOf(HybrisConfigurationException.class)
                        .hasMessageStartingWith("the S3 gateway cannot listen on 127.0.0.1:" + busy.getLocalPort());
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(openFiles()).isLessThanOrEqualTo(before));
        }
    }

    @Test
    void aKeyStoreThatCannotBeReadLeavesThePortFree() throws Exception {
        Path keyStore = TlsGatewayTest.keyStore(dir);
        long timersBefore = serverTimers();
        int port = ServerPorts.next();
        assertThatThrownBy(() -> S3Gateway.builder(hybris).port(port).tls(keyStore, "wrong".toCharArray())
                .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("gateway.p12 cannot be read");
        await().atMost(Duration.ofSeconds(10)).until(() -> serverTimers() == timersBefore);
        try (S3Gateway gateway = S3Gateway.builder(hybris).port(port).tls(keyStore, "changeit".toCharArray())
                .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start()) {
            assertThat(gateway.port()).isEqualTo(port);
        }
    }

    /** Held in the hunt, kept: stopped with a client connected, a gateway frees its port, threads and sockets. */
    @Test
    void startedAndStoppedManyTimesOnOnePortWithAClientConnected() throws Exception {
        long threadsBefore = gatewayThreads();
        long filesBefore = Files.isDirectory(Path.of("/proc/self/fd")) ? openFiles() : -1;
        int port = ServerPorts.next();
        for (int i = 0; i < 20; i++) {
            try (S3Gateway gateway = S3Gateway.builder(hybris).port(port)
                    .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start();
                 Socket client = new Socket(InetAddress.getLoopbackAddress(), gateway.port())) {
                OutputStream out = client.getOutputStream();
                out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(new String(client.getInputStream().readNBytes(12), StandardCharsets.US_ASCII))
                        .isEqualTo("HTTP/1.1 403"); // unsigned; the connection stays open while the gateway stops
            }
        }
        // at most: threads of gateways that earlier tests in this JVM closed may still be ending at the baseline count
        await().atMost(Duration.ofSeconds(10)).until(() -> gatewayThreads() <= threadsBefore);
        if (filesBefore >= 0) {
            await().atMost(Duration.ofSeconds(10)).until(() -> openFiles() <= filesBefore);
        }
    }

    /** The gateway's threads, and the JDK server's dispatcher and timer threads. */
    private static long gatewayThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("hybris-s3-") || n.startsWith("HTTP-Dispatcher")
                        || n.equals("idle-timeout-task") || n.equals("server-timer"))
                .count();
    }

    /** The JDK HTTP server's timer threads: one per server created and not yet released. */
    private static long serverTimers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("idle-timeout-task") || t.getName().equals("server-timer")).count();
    }

    private static long openFiles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
