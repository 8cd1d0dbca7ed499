/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.hybris.spi.CloudObject;
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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A listing the server says is truncated must be followed to its end, or fail: never end early with some of the
 * names. A scripted server answers {@code ListObjectsV2} pages the way a broken (or malicious: clouds are untrusted)
 * S3-compatible server could: truncated without a continuation token, or with the token it was just given.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class S3ListingPagesTest {
    private HttpServer server;
    private final List<String> queries = new CopyOnWriteArrayList<>();
    private volatile String firstPageToken;

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
        if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(200, -1); // the bucket exists
            exchange.close();
            return;
        }
        String query = String.valueOf(exchange.getRequestURI().getRawQuery());
        queries.add(query);
        String body;
        if (!query.contains("continuation-token")) {
            // page 1 of 2: truncated, with whatever token the test scripted (none, or one that repeats)
            body = page(true, firstPageToken, "hybris/c/a#1_x", "hybris/c/b#1_x");
        } else if (queries.size() > 5) {
            body = page(false, null, "hybris/c/z#1_x"); // stop a client that follows a repeated token forever
        } else {
            body = page(true, firstPageToken, "hybris/c/a#1_x", "hybris/c/b#1_x");
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/xml");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static String page(boolean truncated, String nextToken, String... keys) {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>some-bucket</Name>"
                + "<Prefix>hybris/c/</Prefix><KeyCount>" + keys.length + "</KeyCount><MaxKeys>2</MaxKeys>"
                + "<IsTruncated>" + truncated + "</IsTruncated>");
        if (nextToken != null) {
            b.append("<NextContinuationToken>").append(nextToken).append("</NextContinuationToken>");
        }
        for (String k : keys) {
            b.append("<Contents><Key>").append(k).append("</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified>"
                    + "<ETag>\"x\"</ETag><Size>1</Size><StorageClass>STANDARD</StorageClass></Contents>");
        }
        return b.append("</ListBucketResult>").toString();
    }

    private S3CloudStore store() {
        return S3CloudStore.builder("liar").endpoint(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .credentials("a", "b").bucket("some-bucket").build();
    }

    @Test
    void aTruncatedPageWithoutAContinuationTokenFailsInsteadOfEndingTheListing() {
        firstPageToken = null;
        try (S3CloudStore store = store()) {
            List<CloudObject> listed;
            try {
                listed = store.list("hybris/c/");
            } catch (TransientCloudException e) {
                assertThat(e).hasMessageContaining("truncated").hasMessageContaining("no continuation token");
                return;
            }
            throw new AssertionError("a listing the server said was truncated ended after its first page with "
                    + listed.size() + " names");
        }
    }

    @Test
    void aContinuationTokenThatRepeatsFailsInsteadOfLoopingOverTheSamePage() {
        firstPageToken = "same-token";
        try (S3CloudStore store = store()) {
            assertThatThrownBy(() -> store.list("hybris/c/")).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("same-token");
        }
        assertThat(queries).hasSize(2);
    }
}
