/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;

/**
 * The Azure SDK's JDK HTTP client without the log lines it writes in normal operation, in front of every request the
 * driver sends. (The adapter's WARN about {@code Content-Length}, which the SDK sets on every request, is avoided
 * where the adapter is built: {@link ContentLengthDroppingJdkClient}.)
 *
 * <p><b>Errors of abandoned requests.</b> When Hybris abandons a request (an interrupt, a closed store, a race that
 * no longer needs it) the JDK client fails it with a {@link CancellationException} wrapped in a
 * {@code CompletionException}; Reactor, which no longer has a subscriber for it, sends it to its default
 * {@code onErrorDropped} hook, which logs the stack trace at ERROR. This class sets Reactor's per-subscription
 * {@code onErrorDropped} hook (a {@code reactor.core} Context entry, so nothing JVM-wide changes) to a handler that
 * logs the late error at DEBUG, one line (a cancellation, or a timeout or I/O error the abandoned request met on its
 * way: nobody waits for its outcome).
 *
 * <p>Thread-safe when the client it wraps is.
 */
final class QuietJdkHttpClient implements HttpClient {
    /** Reactor's Context key for a subscription's own {@code onErrorDropped} hook ({@code Hooks} keeps it private). */
    static final String REACTOR_ON_ERROR_DROPPED = "reactor.onErrorDropped.local";

    private static final Logger LOG = LoggerFactory.getLogger(QuietJdkHttpClient.class);

    private final HttpClient jdk;
    private final Consumer<Throwable> droppedErrors;

    /** Wraps {@code jdk}; errors reported after a request was abandoned are logged as the class comment says. */
    QuietJdkHttpClient(HttpClient jdk) {
        this(jdk, QuietJdkHttpClient::logDropped);
    }

    /** Wraps {@code jdk}, passing errors reported after a request was abandoned to {@code droppedErrors}. */
    QuietJdkHttpClient(HttpClient jdk, Consumer<Throwable> droppedErrors) {
        this.jdk = Objects.requireNonNull(jdk, "jdk");
        this.droppedErrors = Objects.requireNonNull(droppedErrors, "droppedErrors");
    }

    @Override
    public Mono<HttpResponse> send(HttpRequest request) {
        return send(request, Context.NONE);
    }

    @Override
    public Mono<HttpResponse> send(HttpRequest request, Context context) {
        return jdk.send(request, context).contextWrite(c -> c.put(REACTOR_ON_ERROR_DROPPED, droppedErrors));
    }

    @Override
    public HttpResponse sendSync(HttpRequest request, Context context) {
        return jdk.sendSync(request, context);
    }

    private static void logDropped(Throwable error) {
        // nobody waits for this request any more: its late end (cancelled, or a timeout or I/O error on the way)
        // changes no outcome, so it is not worth more than a debug line
        LOG.debug("an abandoned Azure request ended with {}", error.toString());
    }
}
