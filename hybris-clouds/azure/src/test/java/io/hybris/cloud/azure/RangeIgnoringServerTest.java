/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

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
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A malicious "cloud" (a small HTTP server speaking just enough of the Blob API) that ignores the requested range
 * and streams a huge body: the store must ask for {@code bytes=0-maxBytes}, stop after {@code maxBytes + 1} bytes,
 * abort the download and throw {@link OversizedObjectException}.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class RangeIgnoringServerTest {
    private static final long HUGE = 256L << 20;
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private HttpServer server;
    private final AtomicReference<String> rangeAsked = new AtomicReference<>();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicBoolean clientHungUp = new AtomicBoolean();
    private final CountDownLatch bodyEnded = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        String query = ex.getRequestURI().getRawQuery();
        ex.getResponseHeaders().add("x-ms-version", "2021-12-02");
        ex.getResponseHeaders().add("x-ms-request-id", "test");
        if (query != null && query.contains("comp=list")) {
            byte[] xml = ("<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults ServiceEndpoint=\"http://"
                    + "127.0.0.1/acct\" ContainerName=\"evil\"><Blobs /><NextMarker /></EnumerationResults>")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/xml");
            ex.sendResponseHeaders(200, xml.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(xml);
            }
            return;
        }
        String range = ex.getRequestHeaders().getFirst("x-ms-range");
        rangeAsked.set(range != null ? range : ex.getRequestHeaders().getFirst("Range"));
        ex.getResponseHeaders().add("Content-Type", "application/octet-stream");
        ex.getResponseHeaders().add("x-ms-blob-type", "BlockBlob");
        ex.getResponseHeaders().add("ETag", "\"0x1\"");
        ex.getResponseHeaders().add("Last-Modified", "Sun, 22 Nov 2026 08:00:00 GMT");
        ex.sendResponseHeaders(200, HUGE); // the whole object, range ignored
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = ex.getResponseBody()) {
            while (bytesSent.get() < HUGE) {
                out.write(chunk);
                bytesSent.addAndGet(chunk.length);
            }
        } catch (IOException e) {
            clientHungUp.set(true);
        } finally {
            bodyEnded.countDown();
        }
    }

    @Test
    void aServerIgnoringTheRangeIsCutOffAfterTheLimit() throws Exception {
        String endpoint = "http://127.0.0.1:" + server.getAddress().getPort() + "/acct";
        try (AzureBlobCloudStore store = AzureBlobCloudStore.builder("evil").endpoint(endpoint).account("acct")
                .key(KEY).container("evil").build()) {

            assertThatThrownBy(() -> store.get("hybris/big#1_c", 100))
                    .isInstanceOfSatisfying(OversizedObjectException.class,
                            e -> assertThat(e.cloudId()).isEqualTo("evil"))
                    .hasMessageContaining("larger than the 100 bytes allowed");
        }

        assertThat(rangeAsked.get()).isEqualTo("bytes=0-100");
        assertThat(bodyEnded.await(30, TimeUnit.SECONDS)).as("the server's body write ended").isTrue();
        assertThat(clientHungUp).as("the client aborted the download").isTrue();
        assertThat(bytesSent.get()).isLessThan(HUGE);
    }
}
