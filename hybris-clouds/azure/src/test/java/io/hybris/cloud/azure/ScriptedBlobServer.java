/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import javax.net.ssl.SSLContext;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP server speaking just enough of the Blob API for error-path tests a real emulator cannot produce
 * on demand (throttling, 5xx, a private CA): over HTTP or HTTPS, it answers the store's start-up listing with an empty container and every blob
 * request with one scripted status and Azure error code, counting the blob requests. {@link #hold()} keeps blob
 * requests open (no answer) until {@link #release()}, and says when one has arrived, for interrupt tests. It records
 * each blob request's method and body framing ({@link #framing()}).
 */
final class ScriptedBlobServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicInteger blobRequests = new AtomicInteger();
    private final List<String> framing = new CopyOnWriteArrayList<>();
    private volatile int status = 500;
    private volatile String code = "InternalError";
    private volatile CountDownLatch arrived;
    private volatile CountDownLatch gate;

    private final String scheme;

    /** A plain-HTTP server. */
    ScriptedBlobServer() throws IOException {
        this(null);
    }

    /** An HTTPS server presenting the certificate of {@code tls} (plain HTTP when null). */
    ScriptedBlobServer(SSLContext tls) throws IOException {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls == null) {
            server = HttpServer.create(loopback, 0);
            scheme = "http";
        } else {
            HttpsServer https = HttpsServer.create(loopback, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
            scheme = "https";
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** Every blob request from now on fails with this status and Azure error code. */
    ScriptedBlobServer failWith(int status, String code) {
        this.status = status;
        this.code = code;
        blobRequests.set(0);
        return this;
    }

    /**
     * From now on, every blob request is held without an answer until {@link #release()} (or {@link #close()},
     * which interrupts its handler); the returned latch opens when the first one has arrived.
     */
    synchronized CountDownLatch hold() {
        arrived = new CountDownLatch(1);
        gate = new CountDownLatch(1);
        return arrived;
    }

    /** Lets held blob requests (and later ones) get their scripted answer. */
    synchronized void release() {
        if (gate != null) {
            gate.countDown();
            gate = null;
        }
    }

    /** Blob requests received since the last {@link #failWith}. */
    int blobRequests() {
        return blobRequests.get();
    }

    /**
     * Each blob request's method and body framing as it arrived, e.g. {@code "PUT content-length=11
     * transfer-encoding=null"}, in order.
     */
    List<String> framing() {
        return framing;
    }

    /** The endpoint for the store (account {@code acct}, path style). */
    String endpoint() {
        return scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/acct";
    }

    private void handle(HttpExchange ex) throws IOException {
        String query = ex.getRequestURI().getRawQuery();
        ex.getResponseHeaders().add("x-ms-version", "2021-12-02");
        ex.getResponseHeaders().add("x-ms-request-id", "scripted");
        if (query != null && query.contains("comp=list")) {
            send(ex, 200, "<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults ServiceEndpoint=\""
                    + endpoint() + "\" ContainerName=\"scripted\"><Blobs /><NextMarker /></EnumerationResults>");
            return;
        }
        ex.getRequestBody().readAllBytes();
        framing.add(ex.getRequestMethod() + " content-length=" + ex.getRequestHeaders().getFirst("Content-Length")
                + " transfer-encoding=" + ex.getRequestHeaders().getFirst("Transfer-Encoding"));
        blobRequests.incrementAndGet();
        CountDownLatch held;
        synchronized (this) {
            held = gate;
            if (held != null) {
                arrived.countDown();
            }
        }
        if (held != null) {
            try {
                held.await();
            } catch (InterruptedException e) { // close()
                Thread.currentThread().interrupt();
                ex.close();
                return;
            }
        }
        ex.getResponseHeaders().add("x-ms-error-code", code);
        String body = "HEAD".equals(ex.getRequestMethod()) ? null
                : "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + code + "</Code><Message>scripted "
                + code + " RequestId:scripted</Message></Error>";
        send(ex, status, body);
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/xml");
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
