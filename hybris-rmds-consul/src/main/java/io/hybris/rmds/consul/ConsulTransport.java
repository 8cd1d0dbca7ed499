/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataStoreException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.support.ConfigValues;
import io.hybris.spi.support.TrustStore;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.kiwiproject.consul.Consul;
import org.kiwiproject.consul.ConsulException;
import org.kiwiproject.consul.model.kv.TxResponse;
import org.kiwiproject.consul.model.kv.Value;
import org.kiwiproject.consul.util.Jackson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP side of a {@link ConsulMetadataStore}: our own OkHttp client (on consul-client's threads and connection
 * pool) for every request, so that an interrupt of the calling thread or {@link #close()} can end a request waiting
 * on an agent that stopped answering ({@link InterruptedCalls}), TLS, the leader wait at start-up, the retry of
 * transient failures for operation-timeout, and the mapping of failures to the SPI's exceptions. Thread-safe.
 */
final class ConsulTransport implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsulMetadataStore.class);
    private static final MediaType JSON = MediaType.get("application/json");
    private static final TypeReference<List<Value>> VALUES = new TypeReference<>() { };
    private static final TypeReference<List<String>> KEYS = new TypeReference<>() { };
    /** A deadline argument meaning none: each request is bounded by its own timeouts only. */
    static final long NO_DEADLINE = Long.MIN_VALUE;

    /** A call to Consul, retried on transient failures for up to the operation timeout. */
    @FunctionalInterface
    interface ConsulCall<T> {
        T run() throws IOException;
    }

    /**
     * One HTTP exchange of our own client: status, index header and body; {@code resent} if the request was sent
     * again after an earlier send failed (that send may have been applied, its answer lost).
     */
    record Reply(int code, long index, byte[] body, boolean resent) {
        Reply(int code, long index, byte[] body) {
            this(code, index, body, false);
        }
    }

    private final ConsulSettings settings;
    private final Consul consul;
    private final OkHttpClient http;
    private final OkHttpClient watchHttp;
    private final HttpUrl api;
    private final ScheduledExecutorService timer;
    private final InterruptedCalls interrupts;
    private final BoundedRetry retry;
    private final ConsulErrors errors;
    private final String description;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ConsulTransport(ConsulSettings s, Consul consul, OkHttpClient http, HttpUrl api, String description) {
        this.settings = s;
        this.consul = consul;
        this.http = http;
        this.watchHttp = http.newBuilder()
                .readTimeout(s.watchWait().plus(s.watchWait().dividedBy(16)).plus(s.readTimeout()))
                .build();
        this.api = api;
        this.timer = Executors.newSingleThreadScheduledExecutor(daemonThreads("hybris-consul-watch-"));
        this.interrupts = new InterruptedCalls(timer);
        this.retry = new BoundedRetry(s.operationTimeout(), s.sleeper());
        this.description = description;
        this.errors = new ConsulErrors(s, description);
    }

    /** Builds the clients (nothing is sent yet); bad TLS settings throw {@link HybrisConfigurationException}. */
    static ConsulTransport open(ConsulSettings s, String description) {
        TrustStore trust = null;
        if (s.tls()) {
            trust = s.trustStore() == null ? TrustStore.jdkDefault(s.key("tls"))
                    : TrustStore.load(s.trustStore(), s.trustStorePassword(), s.key("trust-store"),
                    s.key("trust-store-password"));
        }
        String base = (s.tls() ? "https://" : "http://") + s.address();
        HttpUrl root = HttpUrl.parse(base);
        if (root == null) {
            throw new HybrisConfigurationException(s.key("address") + "=" + s.address()
                    + " is not a valid host:port");
        }
        ExecutorService httpThreads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), daemonThreads("hybris-consul-http-"));
        ConnectionPool pool = new ConnectionPool();
        Consul.Builder cb = Consul.builder()
                .withUrl(base)
                .withPing(false)
                .withConnectTimeoutMillis(s.connectTimeout().toMillis())
                .withReadTimeoutMillis(s.readTimeout().toMillis())
                .withWriteTimeoutMillis(s.connectTimeout().toMillis())
                .withExecutorService(httpThreads)
                .withConnectionPool(pool);
        if (s.token() != null) {
            cb.withTokenAuth(s.token());
        }
        if (trust != null) {
            cb.withSslContext(trust.sslContext()).withTrustManager(trust.trustManager());
        }
        Consul consul = cb.build();

        // our own OkHttp client on consul-client's threads and pool, for the requests it cannot make (see txn)
        Dispatcher dispatcher = new Dispatcher(httpThreads);
        dispatcher.setMaxRequests(Integer.MAX_VALUE);
        dispatcher.setMaxRequestsPerHost(Integer.MAX_VALUE);
        OkHttpClient.Builder hb = new OkHttpClient.Builder()
                .dispatcher(dispatcher)
                .connectionPool(pool)
                .addNetworkInterceptor(ConsulTransport::noDelay)
                .addNetworkInterceptor(ConsulTransport::countSend)
                .connectTimeout(s.connectTimeout())
                .readTimeout(s.readTimeout())
                .writeTimeout(s.connectTimeout());
        if (s.token() != null) {
            String token = s.token();
            hb.addInterceptor(chain -> chain.proceed(chain.request().newBuilder()
                    .header("X-Consul-Token", token).build()));
        }
        if (trust != null) {
            hb.sslSocketFactory(trust.sslContext().getSocketFactory(), trust.trustManager());
        }
        return new ConsulTransport(s, consul, hb.build(), root.newBuilder().addPathSegment("v1").build(),
                description);
    }

    /**
     * Reads a KV entry ({@code GET /v1/kv/<key>}) in the read mode; empty if there is none. One request: pass it to
     * {@link #call} for the retries.
     */
    Optional<Value> getValue(String key) throws IOException {
        return getValue(key, NO_DEADLINE);
    }

    /** As {@link #getValue(String)}, the request cut off at {@code deadlineNanos} (see {@link #execute}). */
    Optional<Value> getValue(String key, long deadlineNanos) throws IOException {
        HttpUrl.Builder url = api().addPathSegment("kv").addPathSegments(key);
        addReadMode(url);
        Reply reply = execute(new Request.Builder().url(url.build()).get().build(), deadlineNanos, 200, 404);
        if (reply.code() == 404) {
            return Optional.empty();
        }
        List<Value> values = Jackson.MAPPER.readValue(reply.body(), VALUES);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /**
     * Lists the keys under {@code prefix} ({@code GET /v1/kv/<prefix>?keys}), rolled up at {@code separator} unless it
     * is null, in the read mode; empty if there are none. One request: pass it to {@link #call} for the retries.
     */
    List<String> getKeys(String prefix, String separator) throws IOException {
        HttpUrl.Builder url = api().addPathSegment("kv").addPathSegments(prefix).addQueryParameter("keys", null);
        if (separator != null) {
            url.addQueryParameter("separator", separator);
        }
        addReadMode(url);
        Reply reply = execute(new Request.Builder().url(url.build()).get().build(), 200, 404);
        if (reply.code() == 404) {
            return List.of();
        }
        List<String> keys = Jackson.MAPPER.readValue(reply.body(), KEYS);
        return keys == null ? List.of() : keys;
    }

    /** The HTTP client of watches: its read timeout covers a blocking query's wait. */
    OkHttpClient watchHttp() {
        return watchHttp;
    }

    /** Schedules watch retries. */
    ScheduledExecutorService timer() {
        return timer;
    }

    /** A URL builder at {@code /v1/}. */
    HttpUrl.Builder api() {
        return api.newBuilder();
    }

    /** Whether {@link #close()} was called. */
    boolean isClosed() {
        return closed.get();
    }

    /** Throws if the store is closed. */
    void checkOpen() {
        if (closed.get()) {
            throw new MetadataStoreException(description + " is closed");
        }
    }

    /** Adds the read mode's (and the datacenter's) query parameters. */
    void addReadMode(HttpUrl.Builder url) {
        switch (settings.readMode()) {
            case CONSISTENT -> url.addQueryParameter("consistent", null);
            case STALE -> url.addQueryParameter("stale", null);
            case DEFAULT -> {
                // no parameter
            }
            default -> throw new AssertionError(settings.readMode());
        }
        addDatacenter(url);
    }

    private void addDatacenter(HttpUrl.Builder url) {
        if (settings.datacenter() != null) {
            url.addQueryParameter("dc", settings.datacenter());
        }
    }

    /**
     * Sends a {@code /v1/txn} transaction of {@code operations} (reads in the read mode when {@code read}), retried
     * as any call; returns Consul's answer if it is 200 (committed) or 409 (rolled back; see
     * {@link #parseTransaction}).
     */
    Reply transaction(ArrayNode operations, boolean read, String operation, String what) {
        long giveUp = System.nanoTime() + settings.operationTimeout().toNanos();
        return transaction(operations, read, operation, what, giveUp);
    }

    /** As {@link #transaction(ArrayNode, boolean, String, String)}, retrying only until {@code giveUpNanos}. */
    Reply transaction(ArrayNode operations, boolean read, String operation, String what, long giveUpNanos) {
        return transaction(operations, read, operation, what, giveUpNanos, NO_DEADLINE);
    }

    /**
     * As {@link #transaction(ArrayNode, boolean, String, String, long)}, each send also cut off at
     * {@code deadlineNanos} ({@link System#nanoTime()}; {@link #NO_DEADLINE} for none): the deadline of the store
     * call that sends it, so that a call of several requests ends within the store's call-time bound.
     */
    Reply transaction(ArrayNode operations, boolean read, String operation, String what, long giveUpNanos,
                      long deadlineNanos) {
        // Our own request, not KeyValueClient.performTransaction: that one throws away the body of an HTTP 409,
        // which names the operation that failed.
        byte[] json;
        try {
            json = Jackson.MAPPER.writeValueAsBytes(operations);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a Consul transaction as JSON", e);
        }
        HttpUrl.Builder url = api().addPathSegment("txn");
        if (read) {
            addReadMode(url);
        } else {
            addDatacenter(url);
        }
        // every send on the wire counts, OkHttp's own silent retry of a failed connection as much as ours
        SendCount sends = new SendCount();
        Request request = new Request.Builder().url(url.build()).put(RequestBody.create(json, JSON))
                .tag(SendCount.class, sends).build();
        Reply reply = call(operation, what, () -> execute(request, deadlineNanos, 200, 409), giveUpNanos);
        return sends.get() <= 1 ? reply : new Reply(reply.code(), reply.index(), reply.body(), true);
    }

    /** How many times a request went out on a connection (counted by a network interceptor, per attempt). */
    private static final class SendCount extends java.util.concurrent.atomic.AtomicInteger {
        private static final long serialVersionUID = 1L;
    }

    /**
     * The index of the keys under {@code folder} (a key prefix ending in {@code /}), read in the read mode from a
     * listing that rolls them up into one name ({@code ?keys&separator=/} of the prefix without its last slash), so
     * the answer is a few bytes however many keys there are. Consul's index of a key listing is the highest modify
     * index among the listed prefix's keys and deletions, so it moves whenever a key under {@code folder} is created
     * (and when one is changed or deleted, or a key of a sibling folder starting with the same name is).
     */
    long folderIndex(String folder, String operation, String what) {
        if (!folder.endsWith("/")) {
            throw new IllegalArgumentException("not a folder: " + folder);
        }
        HttpUrl.Builder url = api().addPathSegment("kv")
                .addPathSegments(folder.substring(0, folder.length() - 1))
                .addQueryParameter("keys", null)
                .addQueryParameter("separator", "/");
        addReadMode(url);
        Request request = new Request.Builder().url(url.build()).get().build();
        return call(operation, what, () -> execute(request, 200, 404)).index();
    }

    /** The results (200) or errors (409) of a transaction; a 409 denied by the ACL throws. */
    TxResponse parseTransaction(Reply reply, String operation, String what) {
        TxResponse response = parse(reply, TxResponse.class, operation, what);
        if (reply.code() == 409) {
            errors.checkTransactionDenied(response, operation, what);
        }
        return response;
    }

    /** Waits until the agent answers {@code /v1/status/leader} with a leader, within the start timeout. */
    void awaitLeader() {
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        HttpUrl.Builder url = api().addPathSegments("status/leader");
        addDatacenter(url);
        // our own request, not StatusClient.getLeader: each attempt needs a call timeout within start-timeout
        Request request = new Request.Builder().url(url.build()).get().build();
        String last = "no answer";
        for (int attempt = 0; ; attempt++) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                break;
            }
            Call call = http.newCall(request);
            call.timeout().timeout(remaining, TimeUnit.NANOSECONDS);
            try (Response response = call.execute()) {
                String body = response.body().string().trim();
                if (response.code() == 200 && body.length() > 2) {
                    LOG.debug("{}: cluster leader {}", description, body);
                    return;
                }
                last = response.code() == 200 ? "the agent answers but the cluster has no leader"
                        : "HTTP " + response.code() + ": " + ConsulErrors.detail(body);
                if (response.code() == 403) {
                    throw errors.denied("start", "status/leader", last, null);
                }
            } catch (InterruptedIOException e) {
                if (!(e instanceof SocketTimeoutException) && Thread.currentThread().isInterrupted()) {
                    throw new MetadataUnavailableException("interrupted while connecting to Consul at "
                            + settings.address(), e);
                }
                if (attempt == 0) {
                    last = "no answer: " + e; // else keep the earlier, more telling failure: this attempt was cut short
                }
            } catch (IOException e) {
                last = e.toString();
            }
            try {
                long sleep = Math.min(BoundedRetry.backoffMillis(attempt),
                        TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                if (sleep > 0) {
                    settings.sleeper().sleep(sleep);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MetadataUnavailableException("interrupted while connecting to Consul at "
                        + settings.address(), e);
            }
        }
        String dc = settings.datacenter();
        throw new MetadataUnavailableException("cannot reach " + settings.where() + " with a cluster leader within "
                + ConfigValues.format(settings.startTimeout()) + " (" + settings.key("start-timeout") + "): " + last
                + "; check " + settings.key("address") + (settings.tls() ? ", " + settings.key("tls") : "")
                + (dc == null ? "" : ", " + settings.key("datacenter"))
                + " and that the agent is running and its servers have elected a leader");
    }

    private Reply execute(Request request, int... accepted) throws IOException {
        return execute(request, NO_DEADLINE, accepted);
    }

    /** One exchange, cut off at {@code deadlineNanos} unless it is {@link #NO_DEADLINE}. */
    private Reply execute(Request request, long deadlineNanos, int... accepted) throws IOException {
        Call call = http.newCall(request);
        if (deadlineNanos != NO_DEADLINE) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                throw new InterruptedIOException("not sent: the store call's time bound has passed");
            }
            call.timeout().timeout(left, TimeUnit.NANOSECONDS); // the whole exchange, however the server dribbles
        }
        interrupts.track(call); // an interrupt of this thread cancels the request, also while it waits for bytes
        try (Response response = call.execute()) {
            byte[] body = response.body().bytes();
            for (int code : accepted) {
                if (response.code() == code) {
                    return new Reply(code, index(response), body);
                }
            }
            throw new ConsulErrors.StatusException(response.code(), new String(body, StandardCharsets.UTF_8));
        } finally {
            interrupts.untrack(call);
        }
    }

    private <T> T parse(Reply reply, Class<T> type, String operation, String what) {
        try {
            return Jackson.MAPPER.readValue(reply.body(), type);
        } catch (IOException e) {
            throw new MetadataStoreException(operation + " of " + what + " on " + description
                    + " failed: cannot parse Consul's answer (HTTP " + reply.code() + "): " + e.getMessage(), e);
        }
    }

    /** Runs {@code body}, retrying transient failures for up to operation-timeout; maps failures. */
    <T> T call(String operation, String what, ConsulCall<T> body) {
        return call(operation, what, body, System.nanoTime() + settings.operationTimeout().toNanos());
    }

    /**
     * Runs {@code body}, retrying transient failures until {@code giveUpNanos} ({@link System#nanoTime()}; at most
     * operation-timeout from now); maps failures. The first attempt is made even if that time has passed.
     */
    <T> T call(String operation, String what, ConsulCall<T> body, long giveUpNanos) {
        long start = System.nanoTime();
        long bound = Math.min(giveUpNanos - start, settings.operationTimeout().toNanos());
        for (int retries = 0; ; retries++) {
            checkOpen();
            try {
                return body.run();
            } catch (IOException | ConsulException e) {
                if (closed.get()) {
                    throw new MetadataStoreException(operation + " of " + what + " on " + description
                            + " failed: the store is closed", e);
                }
                if (ConsulErrors.interrupted(e) || Thread.currentThread().isInterrupted()) {
                    Thread.currentThread().interrupt();
                    throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                            + " interrupted; a write's outcome is unknown", e);
                }
                int status = ConsulErrors.status(e);
                if (!ConsulErrors.isTransient(status)) {
                    throw errors.failure(operation, what, status, e);
                }
                long left = bound - (System.nanoTime() - start);
                try {
                    if (retry.allowRetryWithin(retries, left)) {
                        LOG.debug("{}: {} of {} failed ({}), retrying", description, operation, what, e.toString());
                        continue;
                    }
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                            + " interrupted while retrying; a write's outcome is unknown", e);
                }
                throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                        + " failed: Consul unavailable (" + ConsulErrors.describe(status, e) + ") after retrying for "
                        + ConfigValues.format(Duration.ofNanos(System.nanoTime() - start)) + " (" + retries
                        + " retries, operation-timeout " + ConfigValues.format(settings.operationTimeout())
                        + "); a write's outcome is unknown", e);
            }
        }
    }

    /** Counts an attempt of a request that carries a {@link SendCount}: it is about to go out on a connection. */
    private static Response countSend(Interceptor.Chain chain) throws IOException {
        SendCount sends = chain.request().tag(SendCount.class);
        if (sends != null) {
            sends.incrementAndGet();
        }
        return chain.proceed(chain.request());
    }

    /**
     * Turns Nagle's algorithm off ({@code TCP_NODELAY}) on the connection a request goes out on — connections are
     * pooled with consul-client's, which leaves it on. OkHttp writes a request's headers and a large body in
     * separate writes; with Nagle on, a later write waits for the server's ACK, which the server delays (40 ms on
     * Linux): a {@code /v1/txn} body over about 8 KiB (a batch of commits, a large TPUT) took 44 ms instead of 1-2 ms.
     */
    private static Response noDelay(Interceptor.Chain chain) throws IOException {
        Connection connection = chain.connection();
        if (connection != null) {
            connection.socket().setTcpNoDelay(true);
        }
        return chain.proceed(chain.request());
    }

    /** The {@code X-Consul-Index} of an answer, or 0. */
    static long index(Response response) {
        String h = response.header("X-Consul-Index");
        if (h == null) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(h.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Marks the transport closed, so calls fail; returns false if it already was. */
    boolean markClosed() {
        return closed.compareAndSet(false, true);
    }

    /**
     * Closes and stops the timer and consul-client's HTTP threads, cancelling calls in flight: consul-client's and our
     * own client's (transactions, index reads, watches), which has a dispatcher of its own. Idempotent.
     */
    @Override
    public void close() {
        markClosed();
        timer.shutdownNow();
        http.dispatcher().cancelAll(); // a transaction waiting on a hung agent ends now, not at its read-timeout
        consul.destroy(); // cancels consul-client's calls in flight, stops the HTTP threads shared with our client
    }

    /** Daemon threads named {@code namePrefix} and a number. */
    static ThreadFactory daemonThreads(String namePrefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, namePrefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
