/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A listing whose server gives back the marker it was asked with must fail, not ask for the same page again and
 * again (collecting the same names each time: clouds are untrusted, and the garbage collector and the scrubber list
 * with no deadline). A loopback server answers List Blobs with a {@code NextMarker} that never changes; it ends the
 * listing after a few pages only so that a client without the check stops too.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class AzureListingPagesTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicInteger listings = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        String query = String.valueOf(ex.getRequestURI().getRawQuery());
        ex.getResponseHeaders().add("x-ms-version", "2021-12-02");
        ex.getResponseHeaders().add("Content-Type", "application/xml");
        boolean startUpCheck = query.contains("maxresults=1&") || query.endsWith("maxresults=1");
        int n = startUpCheck ? 0 : listings.incrementAndGet();
        String marker = startUpCheck || n > 5 ? "" : "same-marker";
        String blob = startUpCheck ? "" : "<Blob><Name>hybris/c/k" + (n > 5 ? "z" : "") + "#1_x</Name><Properties>"
                + "<Content-Length>1</Content-Length><Last-Modified>Thu, 01 Jan 2026 00:00:00 GMT</Last-Modified>"
                + "<BlobType>BlockBlob</BlobType></Properties></Blob>";
        byte[] body = ("<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults"
                + " ServiceEndpoint=\"http://127.0.0.1/acct\" ContainerName=\"scripted\"><Blobs>" + blob
                + "</Blobs><NextMarker>" + marker + "</NextMarker></EnumerationResults>")
                .getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    @Test
    void aMarkerThatRepeatsFailsTheListingInsteadOfRepeatingThePage() {
        try (AzureBlobCloudStore store = AzureBlobCloudStore.builder("scripted")
                .endpoint("http://127.0.0.1:" + server.getAddress().getPort() + "/acct").account("acct").key(KEY)
                .container("scripted").build()) {
            assertThatThrownBy(() -> store.list("hybris/c/")).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("same-marker");
        }
        assertThat(listings).hasValue(2);
    }
}
