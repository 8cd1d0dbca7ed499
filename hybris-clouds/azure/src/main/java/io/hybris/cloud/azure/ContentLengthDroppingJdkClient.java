/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A JDK {@link java.net.http.HttpClient} that removes {@code Content-Length} from every request before passing it
 * to the real client, which writes the length itself from the request's body publisher.
 *
 * <p>Why: azure-core's JDK adapter (azure-core-http-jdk-httpclient) takes an upload's length from the request's
 * {@code Content-Length} header, then drops every header the JDK client refuses from callers and logs a WARN for
 * each ("The header is restricted by 'java.net.http.HttpClient' and will be ignored"): one WARN per upload in the
 * application's log. {@link AzureBlobClients} tells the adapter that {@code Content-Length} is allowed (through the
 * adapter builder's own {@code Configuration}, nothing JVM-wide), so the adapter passes it on without a word, and
 * this client removes it where the JDK would refuse it. The body publisher the adapter built from the header keeps
 * the length, so the request on the wire is the same: a fixed-length body, never a chunked one (which the Blob
 * service refuses). Every other call goes to the real client unchanged. Thread-safe when the real client is.
 */
final class ContentLengthDroppingJdkClient extends java.net.http.HttpClient {
    private final java.net.http.HttpClient jdk;
    private final Consumer<HttpRequest> seen;

    private ContentLengthDroppingJdkClient(java.net.http.HttpClient jdk, Consumer<HttpRequest> seen) {
        this.jdk = jdk;
        this.seen = seen;
    }

    /**
     * A builder that configures {@code jdk} and builds this client around what it builds; {@code seen} is shown
     * every request as the adapter made it, before the header is removed (tests record them; a no-op otherwise).
     */
    static java.net.http.HttpClient.Builder around(java.net.http.HttpClient.Builder jdk, Consumer<HttpRequest> seen) {
        return new Builder(Objects.requireNonNull(jdk, "jdk"), Objects.requireNonNull(seen, "seen"));
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        return jdk.send(withoutContentLength(request), handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
                                                            HttpResponse.BodyHandler<T> handler) {
        return jdk.sendAsync(withoutContentLength(request), handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                            HttpResponse.PushPromiseHandler<T> push) {
        return jdk.sendAsync(withoutContentLength(request), handler, push);
    }

    private HttpRequest withoutContentLength(HttpRequest request) {
        seen.accept(request);
        return request.headers().firstValue("Content-Length").isPresent() ? new Filtered(request) : request;
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return jdk.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return jdk.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return jdk.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return jdk.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return jdk.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return jdk.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return jdk.authenticator();
    }

    @Override
    public Version version() {
        return jdk.version();
    }

    @Override
    public Optional<Executor> executor() {
        return jdk.executor();
    }

    /** A request as the adapter made it, without {@code Content-Length}. */
    private static final class Filtered extends HttpRequest {
        private final HttpRequest request;
        private final HttpHeaders headers;

        Filtered(HttpRequest request) {
            this.request = request;
            this.headers = HttpHeaders.of(request.headers().map(), (name, value) -> !"Content-Length"
                    .equalsIgnoreCase(name));
        }

        @Override
        public Optional<BodyPublisher> bodyPublisher() {
            return request.bodyPublisher();
        }

        @Override
        public String method() {
            return request.method();
        }

        @Override
        public Optional<Duration> timeout() {
            return request.timeout();
        }

        @Override
        public boolean expectContinue() {
            return request.expectContinue();
        }

        @Override
        public URI uri() {
            return request.uri();
        }

        @Override
        public Optional<Version> version() {
            return request.version();
        }

        @Override
        public HttpHeaders headers() {
            return headers;
        }
    }

    /** Passes every setting to the JDK's builder; {@link #build()} wraps what it builds. */
    private static final class Builder implements java.net.http.HttpClient.Builder {
        private final java.net.http.HttpClient.Builder jdk;
        private final Consumer<HttpRequest> seen;

        Builder(java.net.http.HttpClient.Builder jdk, Consumer<HttpRequest> seen) {
            this.jdk = jdk;
            this.seen = seen;
        }

        @Override
        public Builder cookieHandler(CookieHandler cookieHandler) {
            jdk.cookieHandler(cookieHandler);
            return this;
        }

        @Override
        public Builder connectTimeout(Duration duration) {
            jdk.connectTimeout(duration);
            return this;
        }

        @Override
        public Builder sslContext(SSLContext sslContext) {
            jdk.sslContext(sslContext);
            return this;
        }

        @Override
        public Builder sslParameters(SSLParameters sslParameters) {
            jdk.sslParameters(sslParameters);
            return this;
        }

        @Override
        public Builder executor(Executor executor) {
            jdk.executor(executor);
            return this;
        }

        @Override
        public Builder followRedirects(Redirect policy) {
            jdk.followRedirects(policy);
            return this;
        }

        @Override
        public Builder version(Version version) {
            jdk.version(version);
            return this;
        }

        @Override
        public Builder priority(int priority) {
            jdk.priority(priority);
            return this;
        }

        @Override
        public Builder proxy(ProxySelector proxySelector) {
            jdk.proxy(proxySelector);
            return this;
        }

        @Override
        public Builder authenticator(Authenticator authenticator) {
            jdk.authenticator(authenticator);
            return this;
        }

        @Override
        public java.net.http.HttpClient build() {
            return new ContentLengthDroppingJdkClient(jdk.build(), seen);
        }
    }
}
