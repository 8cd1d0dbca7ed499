/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import com.fasterxml.jackson.core.type.TypeReference;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.Subscription;
import io.hybris.spi.support.ConfigValues;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.Response;
import org.kiwiproject.consul.model.kv.Value;
import org.kiwiproject.consul.util.Jackson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A watch of a {@link ConsulMetadataStore}: blocking queries on one key until its ModifyIndex differs from the one
 * read, then the callback, once. One query is in flight at a time; each is started by the previous one's callback
 * or by the timer, so the plain fields below are handed over with a happens-before edge.
 */
final class ConsulWatch implements Subscription, Callback {
    private static final Logger LOG = LoggerFactory.getLogger(ConsulMetadataStore.class);
    private static final TypeReference<List<Value>> VALUES = new TypeReference<>() { };

    private final ConsulTransport transport;
    private final Set<ConsulWatch> active;
    private final String description;
    private final Duration watchWait;
    private final Duration operationTimeout;
    private final MetadataKey key;
    private final String consulKey;
    /** ModifyIndex of the value read, 0 if the key was absent. */
    private final long seen;
    private final Runnable onChange;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile Call inFlight;
    private volatile long index;
    private volatile int failures;
    private volatile long failingSince;

    /**
     * @param active the store's running watches; this watch adds itself and leaves when it ends
     */
    ConsulWatch(ConsulTransport transport, Set<ConsulWatch> active, ConsulSettings settings, String description,
                MetadataKey key, String consulKey, long seen, Runnable onChange) {
        this.transport = transport;
        this.active = active;
        this.description = description;
        this.watchWait = settings.watchWait();
        this.operationTimeout = settings.operationTimeout();
        this.key = key;
        this.consulKey = consulKey;
        this.seen = seen;
        this.onChange = onChange;
        this.index = seen; // an existing key's query index is its ModifyIndex; 0 asks at once for the index
        active.add(this);
    }

    /** Issues the next blocking query, unless the watch has ended. */
    void poll() {
        if (done.get()) {
            return;
        }
        HttpUrl.Builder url = transport.api().addPathSegment("kv").addPathSegments(consulKey);
        if (index > 0) {
            url.addQueryParameter("index", Long.toUnsignedString(index))
                    .addQueryParameter("wait", watchWait.toMillis() + "ms");
        }
        transport.addReadMode(url);
        // our own async request, not consul-client's KV callbacks: cancel() must be able to cancel the HTTP call
        Call call = transport.watchHttp().newCall(new Request.Builder().url(url.build()).get().build());
        inFlight = call;
        if (done.get()) {
            return; // cancelled meanwhile: cancel() may have seen the previous call only
        }
        try {
            call.enqueue(this);
        } catch (RejectedExecutionException e) {
            done.set(true); // the store is closing
            active.remove(this);
        }
    }

    @Override
    public void onResponse(Call call, Response response) {
        try (response) {
            if (done.get()) {
                return;
            }
            int code = response.code();
            if (code == 200 || code == 404) {
                long current = 0;
                if (code == 200) {
                    List<Value> values = Jackson.MAPPER.readValue(response.body().bytes(), VALUES);
                    current = values == null || values.isEmpty() ? 0 : values.get(0).getModifyIndex();
                }
                failures = 0;
                failingSince = 0;
                if (current != seen) {
                    fire();
                    return;
                }
                long next = ConsulTransport.index(response);
                // Consul's advice: an index that goes backwards means a reset (e.g. a snapshot restore)
                index = next < index ? 0 : Math.max(next, 1);
                poll();
            } else if (ConsulErrors.isTransient(code)) {
                retryLater("HTTP " + code + ": " + ConsulErrors.detail(response.body().string()));
            } else {
                LOG.warn("{}: watch on {} cannot continue (HTTP {}: {}); firing it so the reader re-reads",
                        description, key, code, ConsulErrors.detail(response.body().string()));
                fire();
            }
        } catch (IOException | RuntimeException e) {
            if (!done.get()) {
                retryLater(e.toString());
            }
        }
    }

    @Override
    public void onFailure(Call call, IOException e) {
        if (done.get() || call.isCanceled()) {
            return;
        }
        retryLater(e.toString());
    }

    private void retryLater(String why) {
        long now = System.nanoTime();
        if (failures == 0) {
            failingSince = now;
        }
        if (now - failingSince > operationTimeout.toNanos()) {
            LOG.warn("{}: watch on {} failed for longer than operation-timeout {} ({}); firing it so the reader"
                    + " re-reads", description, key, ConfigValues.format(operationTimeout), why);
            fire();
            return;
        }
        long delay = BoundedRetry.backoffMillis(failures++);
        LOG.debug("{}: watch on {} failed ({}), retrying in {} ms", description, key, why, delay);
        try {
            transport.timer().schedule(this::poll, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            cancel();
        }
    }

    private void fire() {
        if (done.compareAndSet(false, true)) {
            active.remove(this);
            try {
                onChange.run();
            } catch (RuntimeException e) {
                LOG.warn("{}: watch callback for {} threw", description, key, e);
            }
        }
    }

    @Override
    public void cancel() {
        if (done.compareAndSet(false, true)) {
            active.remove(this);
            Call c = inFlight;
            if (c != null) {
                c.cancel();
            }
        }
    }
}
