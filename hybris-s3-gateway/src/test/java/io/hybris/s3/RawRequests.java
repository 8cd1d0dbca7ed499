/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;

/**
 * Hand-made HTTP/1.1 requests to the gateway over a socket, signed with SigV4 (UNSIGNED-PAYLOAD) by the test's
 * key: for what no SDK sends — malformed XML, huge headers, a body cut short.
 */
final class RawRequests {
    private RawRequests() {
    }

    /** The request head (request line and headers, signed), ready to be followed by a body. */
    static String head(URI endpoint, String method, String path, Map<String, String> extraHeaders, long length) {
        String amzDate = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").format(ZonedDateTime.now(ZoneOffset.UTC));
        String date = amzDate.substring(0, 8);
        String host = endpoint.getHost() + ":" + endpoint.getPort();
        Map<String, String> signed = new TreeMap<>();
        signed.put("host", host);
        signed.put("x-amz-content-sha256", "UNSIGNED-PAYLOAD");
        signed.put("x-amz-date", amzDate);
        StringBuilder canonicalHeaders = new StringBuilder();
        signed.forEach((k, v) -> canonicalHeaders.append(k).append(':').append(v).append('\n'));
        String names = String.join(";", signed.keySet());
        int q = path.indexOf('?');
        String rawPath = q < 0 ? path : path.substring(0, q);
        String query = q < 0 ? "" : canonicalQuery(path.substring(q + 1));
        String canonical = method + "\n" + rawPath + "\n" + query + "\n" + canonicalHeaders + "\n" + names
                + "\nUNSIGNED-PAYLOAD";
        String scope = date + "/us-east-1/s3/aws4_request";
        String toSign = SigV4.ALGORITHM + "\n" + amzDate + "\n" + scope + "\n" + SigV4.sha256Hex(canonical);
        String signature = SigV4.hex(SigV4.hmac(SigV4.signingKey(GatewayFixture.SECRET_KEY, date, "us-east-1", "s3"),
                toSign));
        StringBuilder sb = new StringBuilder();
        sb.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        signed.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        sb.append("authorization: ").append(SigV4.ALGORITHM).append(" Credential=").append(GatewayFixture.ACCESS_KEY)
                .append('/').append(scope).append(", SignedHeaders=").append(names).append(", Signature=")
                .append(signature).append("\r\n");
        extraHeaders.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        sb.append("content-length: ").append(length).append("\r\nconnection: close\r\n\r\n");
        return sb.toString();
    }

    /** A raw query string in SigV4's canonical form (parameters sorted, values as sent). */
    static String canonicalQuery(String raw) {
        Map<String, String> sorted = new TreeMap<>();
        for (String p : raw.split("&")) {
            int eq = p.indexOf('=');
            sorted.put(eq < 0 ? p : p.substring(0, eq), eq < 0 ? "" : p.substring(eq + 1));
        }
        StringBuilder sb = new StringBuilder();
        sorted.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "&").append(k).append('=').append(v));
        return sb.toString();
    }

    /** Sends a whole request and returns the response (status line, headers and body) as text. */
    static String exchange(URI endpoint, String method, String path, Map<String, String> headers, byte[] body)
            throws IOException {
        try (Socket s = new Socket(endpoint.getHost(), endpoint.getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(head(endpoint, method, path, headers, body.length).getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Writes {@code head} and {@code body} as they are, half-closes, and returns the whole response as text: what the
     * server sent before it closed the connection. A server that answers before reading the whole body (411, 403)
     * and closes makes the kernel reset the connection; the answer read before the reset is kept.
     */
    static String send(URI endpoint, String head, byte[] body) throws IOException {
        try (Socket s = new Socket(endpoint.getHost(), endpoint.getPort())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            s.shutdownOutput();
            java.io.ByteArrayOutputStream read = new java.io.ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                InputStream in = s.getInputStream();
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    read.write(buffer, 0, n);
                }
            } catch (java.net.SocketException e) {
                if (read.size() == 0) {
                    throw e;
                }
            }
            return read.toString(StandardCharsets.UTF_8);
        }
    }
}
