/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Binds a JDK HTTP server without leaking it when the address cannot be bound. {@code HttpServer.create(address, n)}
 * that fails to bind leaves its socket open, and a server that was never started keeps its selector open even
 * after {@code stop}: only a started server releases everything when it stops. So the server is created unbound,
 * and one that cannot bind its address is started for a moment on a free loopback port and stopped again.
 */
final class HttpServers {
    private HttpServers() {
    }

    /** Binds {@code server} to {@code address}; if that fails, releases the server and rethrows. */
    static <S extends HttpServer> S bind(S server, InetSocketAddress address, int backlog) throws IOException {
        try {
            server.bind(address, backlog);
            return server;
        } catch (IOException | RuntimeException e) {
            release(server, e);
            throw e;
        }
    }

    private static void release(HttpServer server, Exception failure) {
        try {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.start();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
        server.stop(0);
    }
}
