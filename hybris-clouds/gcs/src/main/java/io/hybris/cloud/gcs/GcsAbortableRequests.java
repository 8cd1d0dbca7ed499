/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import org.apache.http.HttpClientConnection;
import org.apache.http.HttpException;
import org.apache.http.HttpRequest;
import org.apache.http.HttpResponse;
import org.apache.http.protocol.HttpContext;
import org.apache.http.protocol.HttpRequestExecutor;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Lets a {@link GcsCloudStore} abort the HTTP requests of one of its calls from another thread, which the SDK
 * cannot: the SDK's requests are blocking, and neither an interrupt nor {@code HttpURLConnection.disconnect()} ends
 * a read blocked on a socket (the JDK's {@code disconnect()} even waits for that read). The store's transport is
 * Apache HttpClient; this object's {@link #executor()} registers each connection a request is sent on with the
 * {@link Call} running on that thread ({@link #within}), and {@link Call#abort()} shuts those connections down,
 * which closes their sockets and ends the blocked read with an I/O error. A connection shut down after its call
 * released it to the pool is a no-op (the pool hands out a fresh proxy with every lease). Thread-safe.
 */
final class GcsAbortableRequests {
    private final ThreadLocal<Call> current = new ThreadLocal<>();

    /** A new call, whose requests {@link #within} tracks. */
    Call newCall() {
        return new Call();
    }

    /** {@code task}, which registers the connections of the requests it sends with {@code call} while it runs. */
    <T> Callable<T> within(Call call, Callable<T> task) {
        return () -> {
            Call outer = current.get();
            current.set(call);
            try {
                return task.call();
            } finally {
                if (outer == null) {
                    current.remove();
                } else {
                    current.set(outer);
                }
            }
        };
    }

    /** The request executor of the store's HTTP client: registers each request's connection with the call. */
    HttpRequestExecutor executor() {
        return new HttpRequestExecutor() {
            @Override
            public HttpResponse execute(HttpRequest request, HttpClientConnection connection, HttpContext context)
                    throws IOException, HttpException {
                Call call = current.get();
                if (call != null) {
                    call.add(connection);
                }
                return super.execute(request, connection, context);
            }
        };
    }

    /** The connections one driver call sent requests on; {@link #abort()} shuts them down. Thread-safe. */
    static final class Call {
        private final List<HttpClientConnection> connections = new ArrayList<>(1);
        private boolean aborted;

        private void add(HttpClientConnection connection) throws IOException {
            synchronized (this) {
                if (!aborted) {
                    connections.add(connection);
                    return;
                }
            }
            connection.shutdown();
            throw new InterruptedIOException("request not sent: its call was aborted");
        }

        /** Shuts down every connection the call sent a request on; later requests of the call fail at once. */
        void abort() {
            List<HttpClientConnection> toShut;
            synchronized (this) {
                if (aborted) {
                    return;
                }
                aborted = true;
                toShut = new ArrayList<>(connections);
            }
            for (HttpClientConnection c : toShut) {
                try {
                    c.shutdown();
                } catch (IOException | RuntimeException ignored) {
                    // the call is being given up; a connection that cannot be shut down ends at its timeout
                }
            }
        }
    }
}
