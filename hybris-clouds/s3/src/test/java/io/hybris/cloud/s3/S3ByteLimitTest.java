/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.hybris.spi.OversizedObjectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The byte limit against a malicious cloud: a scripted HTTP server that ignores the {@code Range} header and
 * answers with an endless body (declared huge, or chunked without a length). MinIO honours ranges, so it cannot
 * play this part. The driver must ask for {@code bytes=0-<maxBytes>}, give up promptly and never drain the body.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class S3ByteLimitTest {
    private static final long GIB = 1L << 30;

    private HttpServer server;
    private final List<String> ranges = new CopyOnWriteArrayList<>();
    private final AtomicLong bytesSent = new AtomicLong();
    private final CountDownLatch bodyEnded = new CountDownLatch(1);

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(200, -1); // the bucket exists
            exchange.close();
            return;
        }
        ranges.add(String.valueOf(exchange.getRequestHeaders().getFirst("Range")));
        exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
        exchange.sendResponseHeaders(200, path.endsWith("declared") ? GIB : 0);
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = exchange.getResponseBody()) {
            for (long sent = 0; sent < GIB; sent += chunk.length) {
                out.write(chunk);
                bytesSent.addAndGet(chunk.length);
            }
        } catch (IOException e) {
            // the client aborted: what this test wants
        } finally {
            bodyEnded.countDown();
        }
    }

    /** The server's write failed (the connection was closed) long before the 1 GiB body was through. */
    private void assertBodyCutShort() throws InterruptedException {
        assertThat(bodyEnded.await(20, TimeUnit.SECONDS)).as("the server is still sending").isTrue();
        assertThat(bytesSent.get()).isLessThan(64L << 20);
    }

    private S3CloudStore store() {
        return S3CloudStore.builder("liar").endpoint(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .credentials("a", "b").bucket("some-bucket").build();
    }

    @Test
    void aBodyDeclaredTooLargeIsRefusedBeforeReadingIt() throws InterruptedException {
        try (S3CloudStore store = store()) {
            assertThatThrownBy(() -> store.get("hybris/c/declared", 1000))
                    .isInstanceOf(OversizedObjectException.class).hasMessageContaining("1000 bytes allowed");
        }
        assertThat(ranges).containsExactly("bytes=0-1000");
        assertBodyCutShort();
    }

    @Test
    void anEndlessBodyWithoutLengthIsCutOffAfterTheLimit() throws InterruptedException {
        try (S3CloudStore store = store()) {
            assertThatThrownBy(() -> store.get("hybris/c/chunked", 100_000))
                    .isInstanceOf(OversizedObjectException.class).hasMessageContaining("100000 bytes allowed");
        }
        assertThat(ranges).containsExactly("bytes=0-100000");
        assertBodyCutShort();
    }
}
