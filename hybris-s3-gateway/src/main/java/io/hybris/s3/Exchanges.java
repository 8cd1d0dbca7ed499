/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writing responses on the JDK's {@link HttpExchange}: XML, empty, streamed bodies and HEAD answers. */
final class Exchanges {
    private Exchanges() {
    }

    static void xml(HttpExchange x, int status, String xml) throws IOException {
        byte[] body = xml.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "application/xml");
        if (x.getRequestMethod().equalsIgnoreCase("HEAD")) {
            x.sendResponseHeaders(status, -1);
            return;
        }
        x.sendResponseHeaders(status, body.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(body);
        }
    }

    /** A response without a body (204, or 200 with headers only). */
    static void empty(HttpExchange x, int status) throws IOException {
        if (status != 204 && !x.getRequestMethod().equalsIgnoreCase("HEAD")) {
            x.getResponseHeaders().set("Content-Length", "0");
        }
        x.sendResponseHeaders(status, -1);
        x.getResponseBody().close();
    }

    /** The headers of a GET answered to a HEAD: the length announced, no body. */
    static void head(HttpExchange x, int status, long length) throws IOException {
        x.getResponseHeaders().set("Content-Length", Long.toString(length));
        x.sendResponseHeaders(status, -1);
        x.getResponseBody().close();
    }

    /**
     * Streams {@code length} bytes of {@code in}. If the stream fails midway the connection is closed without
     * finishing the body, so the client sees a short body, never wrong bytes.
     */
    static void stream(HttpExchange x, int status, long length, InputStream in) throws IOException {
        x.sendResponseHeaders(status, length == 0 ? -1 : length);
        OutputStream out = x.getResponseBody();
        try {
            in.transferTo(out);
            out.close();
        } catch (IOException e) {
            x.close(); // abort: the client sees a truncated body (Content-Length says so)
            throw e;
        }
    }
}
