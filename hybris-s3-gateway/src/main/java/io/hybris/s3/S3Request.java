/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import com.sun.net.httpserver.HttpExchange;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One request as the gateway sees it: method, path-style bucket and key (percent-decoded as UTF-8, {@code +}
 * kept), query parameters (decoded, in order), headers (lower-case names). Immutable except the body stream.
 */
final class S3Request {
    private final HttpExchange exchange;
    private final String method;
    private final String rawPath;
    private final String rawQuery;
    private final String bucket;
    private final String key;
    private final Map<String, String> query;
    private final Map<String, List<String>> headers;
    private InputStream body;

    private S3Request(HttpExchange exchange) {
        this.exchange = exchange;
        this.method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
        this.rawPath = exchange.getRequestURI().getRawPath() == null ? "/" : exchange.getRequestURI().getRawPath();
        this.rawQuery = exchange.getRequestURI().getRawQuery();
        String path = decode(rawPath);
        String rest = path.startsWith("/") ? path.substring(1) : path;
        int slash = rest.indexOf('/');
        this.bucket = rest.isEmpty() ? null : slash < 0 ? rest : rest.substring(0, slash);
        this.key = slash < 0 ? null : emptyToNull(rest.substring(slash + 1));
        this.query = parseQuery(rawQuery);
        Map<String, List<String>> h = new TreeMap<>();
        exchange.getRequestHeaders().forEach((name, values) ->
                h.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>()).addAll(values));
        this.headers = Collections.unmodifiableMap(h);
        this.body = exchange.getRequestBody();
    }

    static S3Request of(HttpExchange exchange) {
        return new S3Request(exchange);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    String method() {
        return method;
    }

    String rawPath() {
        return rawPath;
    }

    String rawQuery() {
        return rawQuery;
    }

    /** The bucket, or null for the service (ListBuckets). */
    String bucket() {
        return bucket;
    }

    /** The key, or null for a bucket request. */
    String key() {
        return key;
    }

    Map<String, String> query() {
        return query;
    }

    boolean has(String param) {
        return query.containsKey(param);
    }

    String param(String name) {
        return query.get(name);
    }

    /** The first value of a header (name in lower case), or null. */
    String header(String name) {
        List<String> v = headers.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    /** Every header, lower-case names. */
    Map<String, List<String>> headers() {
        return headers;
    }

    InputStream body() {
        return body;
    }

    /** Replaces the body stream (by a decoding or verifying wrapper). */
    void body(InputStream in) {
        this.body = in;
    }

    HttpExchange exchange() {
        return exchange;
    }

    /** Reads a small body (XML) whole, at most {@code max} bytes. */
    byte[] readSmallBody(int max) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = body.read(buf)) > 0) {
                out.write(buf, 0, n);
                if (out.size() > max) {
                    throw new S3Exception(400, "MaxMessageLengthExceeded", "Your request was too big: more than "
                            + max + " bytes of XML");
                }
            }
            byte[] bytes = out.toByteArray();
            checkDigests(bytes);
            return bytes;
        } catch (java.io.IOException e) {
            throw new S3Exception(400, "IncompleteBody", "The request body could not be read: " + e.getMessage(), e);
        }
    }

    /**
     * Checks a small body against the SHA-256 the request signed ({@code x-amz-content-sha256}, when it is a hash)
     * and its {@code Content-MD5}: a DeleteObjects or CompleteMultipartUpload body rewritten on the way (or in a
     * replay) must not be acted on.
     */
    private void checkDigests(byte[] bytes) {
        String sha = header("x-amz-content-sha256");
        if (sha != null && sha.length() == 64 && !SigV4.sha256Hex(bytes).equalsIgnoreCase(sha)) {
            throw new S3Exception(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does"
                    + " not match what was computed.");
        }
        String md5 = header("content-md5");
        if (md5 != null && !md5.trim().equals(java.util.Base64.getEncoder().encodeToString(
                SigV4.digest("MD5").digest(bytes)))) {
            throw new S3Exception(400, "BadDigest", "The Content-MD5 you specified did not match what we received.");
        }
    }

    /** The decoded query parameters, in request order (a parameter without {@code =} has the value ""). */
    static Map<String, String> parseQuery(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return q;
        }
        for (String part : raw.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = decodeQuery(eq < 0 ? part : part.substring(0, eq));
            String value = eq < 0 ? "" : decodeQuery(part.substring(eq + 1));
            q.putIfAbsent(name, value);
        }
        return q;
    }

    /** Percent-decoding as UTF-8 of a path: {@code +} is a plus sign. */
    static String decode(String s) {
        return percentDecode(s, false);
    }

    /** Percent-decoding of a query component: {@code +} is a space (form encoding, which some clients use). */
    static String decodeQuery(String s) {
        return percentDecode(s, true);
    }

    private static String percentDecode(String s, boolean plusIsSpace) {
        if (s.indexOf('%') < 0 && (!plusIsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw S3Exception.invalidArgument("bad percent-encoding in '" + s + "'");
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c == '%') {
                throw S3Exception.invalidArgument("truncated percent-encoding in '" + s + "'");
            } else if (c == '+' && plusIsSpace) {
                out.write(' ');
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                out.write(b, 0, b.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** RFC 3986 encoding as SigV4 wants it: unreserved characters kept, {@code /} kept if {@code keepSlash}. */
    static String uriEncode(String s, boolean keepSlash) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                    || c == '.' || c == '~' || (keepSlash && c == '/')) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }
}
