/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small client for toxiproxy's HTTP API (the test environment's network-fault proxy): creates TCP proxies in
 * front of servers, adds latency, and cuts or restores a proxy. Used by tests and benchmarks to give each
 * emulated cloud its own latency and to take one down mid-run.
 *
 * <pre>{@code
 * Toxiproxy toxiproxy = new Toxiproxy(env.toxiproxyApi());
 * Toxiproxy.Proxy s3 = toxiproxy.create("s3", env.minioEndpoint());
 * s3.latency(Duration.ofMillis(10));
 * URI endpoint = s3.endpoint();   // point the S3 driver here
 * s3.disable();                   // connections are refused until enable()
 * }</pre>
 */
public final class Toxiproxy {
    private static final Pattern LISTEN = Pattern.compile("\"listen\"\\s*:\\s*\"([^\"]+)\"");

    private final URI api;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A client for the toxiproxy API at {@code api} (e.g. {@code http://127.0.0.1:8474}). */
    public Toxiproxy(URI api) {
        this.api = api;
    }

    /**
     * Creates (replacing any of the same name) a proxy listening on a free loopback port in front of the server
     * at {@code upstream} (only its host and port are used).
     */
    public Proxy create(String name, URI upstream) {
        checkName(name);
        send("DELETE", "/proxies/" + name, null, true);
        String body = send("POST", "/proxies", "{\"name\":\"" + name + "\",\"listen\":\"127.0.0.1:0\","
                + "\"upstream\":\"" + upstream.getHost() + ":" + upstream.getPort() + "\",\"enabled\":true}", false);
        Matcher m = LISTEN.matcher(body);
        if (!m.find()) {
            throw new IllegalStateException("toxiproxy answered without a listen address: " + body);
        }
        String path = upstream.getRawPath() == null ? "" : upstream.getRawPath();
        return new Proxy(name, URI.create(upstream.getScheme() + "://" + m.group(1) + path));
    }

    /**
     * A proxy that already exists (the test environment creates {@code s3}, {@code azure} and {@code gcs}),
     * reached at {@code endpoint}; it is reset to enabled with no toxics.
     */
    public Proxy existing(String name, URI endpoint) {
        checkName(name);
        send("GET", "/proxies/" + name, null, false);
        return new Proxy(name, endpoint).reset();
    }

    private static void checkName(String name) {
        if (!name.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("proxy name must be [A-Za-z0-9_-]+: " + name);
        }
    }

    /**
     * One API request, retried up to three times when toxiproxy does not answer in time: under heavy traffic its
     * control port can stall for seconds while a toxic is removed from busy connections (toxiproxy issue #558).
     * Every request this client sends is idempotent, or made so: adding a toxic that a timed-out attempt already
     * added answers 409, which counts as done.
     */
    private String send(String method, String path, String json, boolean allowNotFound) {
        IOException last = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            HttpRequest.Builder b = HttpRequest.newBuilder(api.resolve(path)).timeout(Duration.ofSeconds(20));
            b.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json));
            try {
                HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
                boolean alreadyDone = attempt > 1 && r.statusCode() == 409;
                if (r.statusCode() / 100 != 2 && !(allowNotFound && r.statusCode() == 404) && !alreadyDone) {
                    throw new IllegalStateException("toxiproxy " + method + " " + path + " answered " + r.statusCode()
                            + ": " + r.body());
                }
                return r.body();
            } catch (IOException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted talking to toxiproxy", e);
            }
        }
        throw new IllegalStateException("toxiproxy at " + api + " unreachable (3 attempts): " + last, last);
    }

    /** One proxy: its endpoint, latency and on/off switch. */
    public final class Proxy {
        private final String name;
        private final URI endpoint;

        private Proxy(String name, URI endpoint) {
            this.name = name;
            this.endpoint = endpoint;
        }

        /** The proxy's name. */
        public String name() {
            return name;
        }

        /** The upstream endpoint with host and port replaced by the proxy's (scheme and path kept). */
        public URI endpoint() {
            return endpoint;
        }

        /** Enables the proxy and removes its latency and bandwidth limit. */
        public Proxy reset() {
            enable();
            bandwidth(0);
            return latency(Duration.ZERO);
        }

        /**
         * Sets the latency added to every response (downstream), replacing any earlier latency; zero removes it.
         */
        public Proxy latency(Duration latency) {
            send("DELETE", "/proxies/" + name + "/toxics/latency", null, true);
            if (!latency.isZero()) {
                send("POST", "/proxies/" + name + "/toxics", "{\"name\":\"latency\",\"type\":\"latency\","
                        + "\"stream\":\"downstream\",\"toxicity\":1.0,\"attributes\":{\"latency\":"
                        + latency.toMillis() + ",\"jitter\":0}}", false);
            }
            return this;
        }

        /**
         * Stalls (true) or releases (false) the proxy's responses: while stalled, requests reach the upstream but
         * no byte of an answer comes back and no connection is closed, as with a cloud that hangs (toxiproxy's
         * {@code timeout} toxic with timeout 0, downstream).
         */
        public Proxy stall(boolean stalled) {
            send("DELETE", "/proxies/" + name + "/toxics/stall", null, true);
            if (stalled) {
                send("POST", "/proxies/" + name + "/toxics", "{\"name\":\"stall\",\"type\":\"timeout\","
                        + "\"stream\":\"downstream\",\"toxicity\":1.0,\"attributes\":{\"timeout\":0}}", false);
            }
            return this;
        }

        /**
         * Limits the proxy's responses (downstream) to {@code kilobytesPerSecond} KB/s, replacing any earlier limit;
         * zero removes it: a cloud whose answers trickle in without ever pausing long (toxiproxy's
         * {@code bandwidth} toxic).
         */
        public Proxy bandwidth(long kilobytesPerSecond) {
            send("DELETE", "/proxies/" + name + "/toxics/bandwidth", null, true);
            if (kilobytesPerSecond > 0) {
                send("POST", "/proxies/" + name + "/toxics", "{\"name\":\"bandwidth\",\"type\":\"bandwidth\","
                        + "\"stream\":\"downstream\",\"toxicity\":1.0,\"attributes\":{\"rate\":"
                        + kilobytesPerSecond + "}}", false);
            }
            return this;
        }

        /** Cuts the proxy: open connections close and new ones are refused. */
        public Proxy disable() {
            send("POST", "/proxies/" + name, "{\"enabled\":false}", false);
            return this;
        }

        /** Restores the proxy. */
        public Proxy enable() {
            send("POST", "/proxies/" + name, "{\"enabled\":true}", false);
            return this;
        }

        /** Removes the proxy from toxiproxy. */
        public void delete() {
            send("DELETE", "/proxies/" + name, null, true);
        }

        @Override
        public String toString() {
            return "proxy " + name + " at " + endpoint;
        }
    }
}
