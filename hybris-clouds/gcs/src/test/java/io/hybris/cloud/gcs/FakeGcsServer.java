/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny HTTP server on loopback that answers like the GCS JSON API and Google's OAuth token endpoint do when
 * they refuse a request. It exists only because fake-gcs-server accepts any credentials and never fails, so
 * there is no real server here that rejects credentials or answers 403/429/5xx: it returns GCS-style JSON error
 * bodies with a chosen status, rejects every service account key at {@code /token} with {@code invalid_grant},
 * or holds requests open (for interrupt tests). It stores nothing.
 */
final class FakeGcsServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger storageRequests = new AtomicInteger();
    private volatile int status = 401;
    private volatile String message = "Invalid Credentials";
    private volatile boolean hang;
    private volatile CountDownLatch arrived = new CountDownLatch(1);
    private volatile String lastRange;
    private volatile String lastAuthorization;
    private volatile URI lastUri;

    private FakeGcsServer(HttpServer server) {
        this.server = server;
    }

    static FakeGcsServer start() throws IOException {
        return start(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
    }

    /** Serves HTTPS with the key in {@code keyStore} (PKCS#12). */
    static FakeGcsServer startTls(Path keyStore, String password) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            ks.load(in, password.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, password.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        return start(https);
    }

    private static FakeGcsServer start(HttpServer http) {
        FakeGcsServer fake = new FakeGcsServer(http);
        http.setExecutor(fake.threads);
        http.createContext("/token", fake::token);
        http.createContext("/", fake::storage);
        http.start();
        return fake;
    }

    URI endpoint() {
        return URI.create((server instanceof HttpsServer ? "https" : "http") + "://127.0.0.1:"
                + server.getAddress().getPort());
    }

    /**
     * Storage requests answer {@code status} with a GCS JSON error carrying {@code message}; status 200 answers
     * an empty object listing (enough for the start-up bucket check).
     */
    FakeGcsServer respondWith(int status, String message) {
        this.status = status;
        this.message = message;
        this.hang = false;
        return this;
    }

    /** Storage requests are held open, unanswered, until {@link #close()}; returns a latch for the first one. */
    CountDownLatch hang() {
        arrived = new CountDownLatch(1);
        hang = true;
        return arrived;
    }

    /** The Range header of the last storage request, or null. */
    String lastRange() {
        return lastRange;
    }

    /** The Authorization header of the last storage request, or null. */
    String lastAuthorization() {
        return lastAuthorization;
    }

    /** The path and query of the last storage request, or null. */
    URI lastUri() {
        return lastUri;
    }

    /** How many storage (non-token) requests arrived. */
    int storageRequests() {
        return storageRequests.get();
    }

    /**
     * A service account key file in Google's JSON format, with a fresh RSA key and this server's {@code /token}
     * as its token endpoint, which rejects it.
     */
    Path rejectedServiceAccountKey() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(2048);
            String pem = ("-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(gen.generateKeyPair().getPrivate().getEncoded())
                    + "\n-----END PRIVATE KEY-----\n").replace("\n", "\\n"); // JSON-escaped newlines
            String json = "{\"type\":\"service_account\",\"project_id\":\"p\",\"private_key_id\":\"k1\","
                    + "\"private_key\":\"" + pem + "\",\"client_email\":\"hybris@p.iam.gserviceaccount.com\","
                    + "\"client_id\":\"1\",\"token_uri\":\"" + endpoint() + "/token\"}";
            Path file = Files.createTempFile("hybris-gcs-key", ".json");
            file.toFile().deleteOnExit();
            Files.writeString(file, json);
            return file;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void token(HttpExchange ex) throws IOException {
        drain(ex);
        send(ex, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}");
    }

    private void storage(HttpExchange ex) throws IOException {
        drain(ex);
        lastRange = ex.getRequestHeaders().getFirst("Range");
        lastAuthorization = ex.getRequestHeaders().getFirst("Authorization");
        lastUri = ex.getRequestURI();
        storageRequests.incrementAndGet();
        if (hang) {
            arrived.countDown();
            try {
                release.await(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
            return;
        }
        if (status == 200) {
            send(ex, 200, "{\"kind\":\"storage#objects\"}");
            return;
        }
        String reason = switch (status) {
            case 401 -> "authError";
            case 403 -> "forbidden";
            case 404 -> "notFound";
            case 429 -> "rateLimitExceeded";
            default -> status >= 500 ? "backendError" : "invalid";
        };
        send(ex, status, "{\"error\":{\"code\":" + status + ",\"message\":\"" + message + "\",\"errors\":[{"
                + "\"message\":\"" + message + "\",\"domain\":\"global\",\"reason\":\"" + reason + "\"}]}}");
    }

    private static void drain(HttpExchange ex) throws IOException {
        try (InputStream in = ex.getRequestBody()) {
            in.transferTo(OutputStream.nullOutputStream());
        }
    }

    private static void send(HttpExchange ex, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
