/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Raw Consul HTTP API calls for tests, to look at what the store wrote (and to write behind its back) without
 * going through the code under test.
 */
final class ConsulHttp {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String address;
    private final String token;

    ConsulHttp(String address, String token) {
        this.address = address;
        this.token = token;
    }

    ConsulHttp(String address) {
        this(address, null);
    }

    /** The raw bytes stored under a Consul key ({@code ?raw}), or null if absent. */
    byte[] rawValue(String consulKey) {
        HttpResponse<byte[]> r = send(request("/v1/kv/" + path(consulKey) + "?raw").GET(),
                HttpResponse.BodyHandlers.ofByteArray());
        return r.statusCode() == 404 ? null : check(r).body();
    }

    /** The {@code ModifyIndex} of a Consul key, or -1 if absent. */
    long modifyIndex(String consulKey) {
        HttpResponse<String> r = send(request("/v1/kv/" + path(consulKey)).GET(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return -1;
        }
        Matcher m = Pattern.compile("\"ModifyIndex\"\\s*:\\s*(\\d+)").matcher(check(r).body());
        if (!m.find()) {
            throw new AssertionError("no ModifyIndex in " + r.body());
        }
        return Long.parseLong(m.group(1));
    }

    /** The keys under a prefix ({@code ?keys}), in Consul's order; empty if there are none. */
    List<String> keys(String prefix) {
        HttpResponse<String> r = send(request("/v1/kv/" + path(prefix) + "?keys").GET(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        Matcher m = Pattern.compile("\"([^\"]*)\"").matcher(check(r).body());
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    /** Writes a value unconditionally. */
    void put(String consulKey, byte[] value) {
        check(send(request("/v1/kv/" + path(consulKey)).PUT(HttpRequest.BodyPublishers.ofByteArray(value)),
                HttpResponse.BodyHandlers.ofString()));
    }

    /** Deletes a key. */
    void delete(String consulKey) {
        check(send(request("/v1/kv/" + path(consulKey)).DELETE(), HttpResponse.BodyHandlers.ofString()));
    }

    /** A PUT of a JSON document to an API path, returning the answer's body. */
    String putJson(String apiPath, String json) {
        return check(send(request(apiPath).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)), HttpResponse.BodyHandlers.ofString())).body();
    }

    private static String path(String consulKey) {
        StringBuilder out = new StringBuilder();
        for (String segment : consulKey.split("/", -1)) {
            out.append(out.length() == 0 ? "" : "/")
                    .append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return out.toString();
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + address + pathAndQuery))
                .timeout(Duration.ofSeconds(10));
        if (token != null) {
            b.header("X-Consul-Token", token);
        }
        return b;
    }

    private static <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> handler) {
        try {
            return HTTP.send(request.build(), handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static <T> HttpResponse<T> check(HttpResponse<T> r) {
        if (r.statusCode() / 100 != 2) {
            throw new AssertionError(r.request().method() + " " + r.uri() + " answered " + r.statusCode() + ": "
                    + (r.body() instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : r.body()));
        }
        return r;
    }
}
