/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.hybris.Hybris;
import io.hybris.HybrisConfigurationException;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An S3-compatible HTTP endpoint over one {@link Hybris} client: buckets are containers, objects are keys, so any S3
 * tool (aws-cli, boto3, rclone, SDKs) gets Hybris's f-fault-tolerant, hash-checked, multi-cloud storage. Requests are
 * path-style ({@code http://host:port/bucket/key}) and signed with AWS Signature Version 4 by one of the configured
 * access keys (header, {@code aws-chunked} streaming, or presigned URL). Served by the JDK's HTTP server, plain or
 * TLS; stateless, so several gateways may serve one deployment side by side (docs/s3-gateway.md).
 *
 * <pre>{@code
 * try (Hybris hybris = Hybris.fromProperties(Path.of("hybris.properties"));
 *      S3Gateway gateway = S3Gateway.builder(hybris).port(9000).credentials("AKID", "secret").start()) {
 *     System.out.println("S3 endpoint: " + gateway.endpoint());
 *     ...
 * }
 * }</pre>
 * Closing the gateway stops the server (requests in flight get up to 2 s; {@link #stop(Duration)} gives them longer)
 * but not the Hybris client. Starting one
 * sets the system property {@code sun.net.httpserver.nodelay=true} unless it is set (the JDK server reads it once per
 * JVM; without it every small response waits about 40 ms for the client's delayed ACK).
 */
public final class S3Gateway implements AutoCloseable {
    private static final String NODELAY = "sun.net.httpserver.nodelay";
    private final HttpServer server;
    private final S3Handler handler;
    private final ExecutorService threads;
    private final ClientTimeouts timeouts;
    private final URI endpoint;
    private final InFlightRequests inFlight;
    private final AtomicBoolean stopped = new AtomicBoolean();

    private S3Gateway(HttpServer server, S3Handler handler, InFlightRequests inFlight, ExecutorService threads,
                      ClientTimeouts timeouts, URI endpoint) {
        this.server = server;
        this.handler = handler;
        this.inFlight = inFlight;
        this.threads = threads;
        this.timeouts = timeouts;
        this.endpoint = endpoint;
    }

    /** A builder for a gateway over {@code hybris} (which the gateway does not close). */
    public static Builder builder(Hybris hybris) {
        return new Builder(hybris);
    }

    /** The endpoint clients use, e.g. {@code http://127.0.0.1:9000}. */
    public URI endpoint() {
        return endpoint;
    }

    /** The port the server listens on (useful with port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The client timeouts (see {@link Builder#clientTimeouts}). */
    ClientTimeouts clientTimeouts() {
        return timeouts;
    }

    /** Stops the gateway, giving the requests in flight up to 2 s: {@link #stop(Duration) stop(2 s)}. */
    @Override
    public void close() {
        stop(Duration.ofSeconds(2));
    }

    /**
     * Stops the gateway gracefully: requests that arrive from now on are answered 503 ServiceUnavailable (S3 clients
     * retry it, on another gateway of the deployment if there is one), the requests in flight get up to {@code drain}
     * to answer, then the server stops listening and closes its connections; a request still running then is
     * interrupted (its outcome is unknown to its client, as for a connection lost; nothing half-written becomes
     * visible). The Hybris client stays open. Returns whether every request in flight answered. Idempotent.
     */
    public boolean stop(Duration drain) {
        boolean drained = inFlight.drain(Objects.requireNonNull(drain, "drain"));
        if (!stopped.compareAndSet(false, true)) {
            return drained;
        }
        server.stop(0);
        threads.shutdownNow();
        timeouts.close();
        handler.close();
        return drained;
    }

    /** Configures and starts an {@link S3Gateway}. Not thread-safe. */
    public static final class Builder {
        private final Hybris hybris;
        private String host = "127.0.0.1";
        private int port = 9000;
        private final Map<String, String> credentials = new LinkedHashMap<>();
        private Path keyStore;
        private char[] keyStorePassword;
        private int threads = 64;
        private int maxHeaderBytes = 16 * 1024;
        private Duration headTimeout = Duration.ofSeconds(30);
        private Duration idleTimeout = Duration.ofSeconds(60);
        private Clock clock = Clock.systemUTC();
        private java.util.function.LongSupplier nanoTime = System::nanoTime;

        private Builder(Hybris hybris) {
            this.hybris = Objects.requireNonNull(hybris, "hybris");
        }

        /** The address to bind; default {@code 127.0.0.1} (use {@code 0.0.0.0} to serve other hosts). */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The port; default 9000; 0 picks a free one. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Adds an access key and its secret key; at least one is required. */
        public Builder credentials(String accessKey, String secretKey) {
            if (accessKey == null || accessKey.isBlank() || secretKey == null || secretKey.isEmpty()) {
                throw new HybrisConfigurationException("an S3 gateway access key and secret key must not be empty");
            }
            credentials.put(accessKey, secretKey);
            return this;
        }

        /** Serves HTTPS with the key and certificate in this PKCS#12 key store; default plain HTTP. */
        public Builder tls(Path keyStore, char[] password) {
            this.keyStore = Objects.requireNonNull(keyStore, "keyStore");
            this.keyStorePassword = password == null ? new char[0] : password.clone();
            return this;
        }

        /** Requests served at once; default 64. */
        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        /** The largest request header section accepted, in bytes; default 16 KiB. */
        public Builder maxHeaderBytes(int maxHeaderBytes) {
            this.maxHeaderBytes = maxHeaderBytes;
            return this;
        }

        /**
         * How long a client may take to send a request's head (and TLS handshake) from its first byte, default 30 s;
         * and how long a request body or response may make no progress, default 60 s. A client past either is cut
         * off (its connection closed), so stalled clients cannot hold the request threads. Time Hybris spends on a
         * request (a slow cloud) does not count.
         *
         * @throws HybrisConfigurationException if either is not positive
         */
        public Builder clientTimeouts(Duration head, Duration idle) {
            if (head == null || idle == null || head.isNegative() || head.isZero() || idle.isNegative()
                    || idle.isZero()) {
                throw new HybrisConfigurationException("S3 gateway client timeouts must be positive, not head="
                        + head + " idle=" + idle);
            }
            this.headTimeout = head;
            this.idleTimeout = idle;
            return this;
        }

        /** The clock signatures are checked against (tests). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The monotonic clock that judges when a stopped gateway's multipart complete may be taken over (tests). */
        Builder nanoTime(java.util.function.LongSupplier nanoTime) {
            this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
            return this;
        }

        /**
         * Starts the server.
         *
         * @throws HybrisConfigurationException if no credentials were given, a setting is out of range, the key
         *                                      store cannot be read, or the port cannot be bound
         */
        public S3Gateway start() {
            if (credentials.isEmpty()) {
                throw new HybrisConfigurationException("the S3 gateway needs at least one access key: call"
                        + " credentials(accessKey, secretKey)");
            }
            if (port < 0 || port > 65535) {
                throw new HybrisConfigurationException("S3 gateway port " + port + " is not 0-65535");
            }
            if (threads < 1 || maxHeaderBytes < 1024) {
                throw new HybrisConfigurationException("S3 gateway threads must be positive and maxHeaderBytes at"
                        + " least 1024");
            }
            // The JDK server leaves Nagle's algorithm on unless this is set; with a client's delayed ACK that adds
            // about 40 ms to every small response (measured: 4 KiB GET p50 48 ms). It is read once, when the JVM's
            // first JDK HTTP server starts, so it is set here unless the application chose a value itself.
            if (System.getProperty(NODELAY) == null) {
                System.setProperty(NODELAY, "true");
            }
            // the key store is read before the port is bound: a bad one must leave nothing listening
            SSLContext ssl = keyStore != null ? sslContext() : null;
            HttpServer server;
            try {
                InetSocketAddress address = new InetSocketAddress(host, port);
                if (ssl != null) {
                    HttpsServer https = HttpServers.bind(HttpsServer.create(), address, 128);
                    https.setHttpsConfigurator(new HttpsConfigurator(ssl));
                    server = https;
                } else {
                    server = HttpServers.bind(HttpServer.create(), address, 128);
                }
            } catch (IOException e) {
                throw new HybrisConfigurationException("the S3 gateway cannot listen on " + host + ":" + port + ": "
                        + e.getMessage(), e);
            }
            AtomicInteger n = new AtomicInteger();
            ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, "hybris-s3-" + n.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    });
            pool.allowCoreThreadTimeOut(true);
            InFlightRequests inFlight = new InFlightRequests();
            S3Handler handler = new S3Handler(hybris, new RequestAuthenticator(credentials, clock), maxHeaderBytes,
                    inFlight, nanoTime);
            ClientTimeouts timeouts = new ClientTimeouts(headTimeout, idleTimeout);
            server.createContext("/", handler).getFilters().add(timeouts.filter());
            server.setExecutor(timeouts.exchanges(pool));
            server.start();
            String scheme = keyStore != null ? "https" : "http";
            String shown = host.equals("0.0.0.0") ? "127.0.0.1" : host;
            return new S3Gateway(server, handler, inFlight, pool, timeouts,
                    URI.create(scheme + "://" + shown + ":" + server.getAddress().getPort()));
        }

        private SSLContext sslContext() {
            try (InputStream in = Files.newInputStream(keyStore)) {
                KeyStore ks = KeyStore.getInstance("PKCS12");
                ks.load(in, keyStorePassword);
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(ks, keyStorePassword);
                SSLContext ctx = SSLContext.getInstance("TLS");
                ctx.init(kmf.getKeyManagers(), null, null);
                return ctx;
            } catch (IOException e) {
                throw new HybrisConfigurationException("the S3 gateway's key store " + keyStore + " cannot be read: "
                        + e.getMessage(), e);
            } catch (GeneralSecurityException e) {
                throw new HybrisConfigurationException("the S3 gateway's key store " + keyStore + " is not a usable"
                        + " PKCS#12 key store (wrong password?): " + e.getMessage(), e);
            }
        }
    }
}
