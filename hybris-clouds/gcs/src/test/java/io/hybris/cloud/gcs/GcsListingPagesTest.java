/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

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
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A listing whose server gives back the page token it was asked with must fail, not ask for the same page again
 * and again (collecting the same names each time: clouds are untrusted, and the garbage collector and the scrubber
 * list with no deadline). A loopback server answers object listings with a {@code nextPageToken} that never
 * changes; it ends the listing after a few pages only so that a client without the check stops too.
 */
@Timeout(60)
class GcsListingPagesTest {
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
        boolean startUpCheck = query.matches("(.*&)?maxResults=1(&.*)?");
        int n = startUpCheck ? 0 : listings.incrementAndGet();
        String json = startUpCheck ? "{\"kind\":\"storage#objects\"}"
                : "{\"kind\":\"storage#objects\",\"items\":[{\"bucket\":\"bkt\",\"name\":\"hybris/c/k"
                + (n > 5 ? "z" : "") + "#1_x\",\"size\":\"1\",\"updated\":\"2026-01-01T00:00:00.000Z\"}]"
                + (n > 5 ? "" : ",\"nextPageToken\":\"same-token\"") + "}";
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json; charset=UTF-8");
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    @Test
    void aPageTokenThatRepeatsFailsTheListingInsteadOfRepeatingThePage() {
        try (GcsCloudStore store = GcsCloudStore.builder("scripted")
                .endpoint(URI.create("http://127.0.0.1:" + server.getAddress().getPort())).anonymous(true)
                .project("p").bucket("bkt").build()) {
            assertThatThrownBy(() -> store.list("hybris/c/")).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("same-token");
        }
        assertThat(listings).hasValue(2);
    }
}
