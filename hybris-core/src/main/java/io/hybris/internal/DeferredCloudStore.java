/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.ByteConsumer;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A cloud that could not be reached while the client opened (its provider's start-up failed with a
 * {@link TransientCloudException}: connection refused, a timeout). Hybris tolerates {@code f} clouds being down,
 * so one being down at start must not keep the client from opening: this stand-in fails every call as an outage
 * would — the protocol routes around it — and tries to start the real store again on a call at most once per
 * {@link #RETRY_INTERVAL}, after which it forwards to it. Thread-safe.
 */
final class DeferredCloudStore implements CloudStore {
    private static final Logger LOG = LoggerFactory.getLogger(DeferredCloudStore.class);
    /** Shortest time between two attempts to start the real store. */
    static final Duration RETRY_INTERVAL = Duration.ofSeconds(5);

    private final String id;
    private final Supplier<CloudStore> starter;
    private final Object lock = new Object();
    /** Held while the real store starts (one attempt at a time), never by close(), which does not wait for it. */
    private final Object starting = new Object();
    private volatile CloudStore started;
    private volatile RuntimeException lastFailure;
    private long nextAttempt;
    private boolean closed;

    DeferredCloudStore(String id, Supplier<CloudStore> starter, RuntimeException firstFailure, long nowNanos) {
        this.id = id;
        this.starter = starter;
        this.lastFailure = firstFailure;
        this.nextAttempt = nowNanos + RETRY_INTERVAL.toNanos();
    }

    /** The real store, started now if it is time to try again; else an outage naming the last failure. */
    private CloudStore store() {
        CloudStore s = started;
        if (s != null) {
            return s;
        }
        synchronized (starting) {
            synchronized (lock) {
                if (started != null) {
                    return started;
                }
                if (closed) {
                    throw closedException();
                }
                long now = System.nanoTime();
                if (now - nextAttempt < 0) {
                    throw new TransientCloudException(id, "cloud '" + id + "' has been unreachable since the client"
                            + " opened (next start attempt within " + RETRY_INTERVAL.toSeconds() + " s): "
                            + lastFailure, lastFailure);
                }
                nextAttempt = now + RETRY_INTERVAL.toNanos();
            }
            // outside the lock close() takes: a start-up over the network used to hold up the client's close
            CloudStore fresh;
            try {
                fresh = starter.get();
            } catch (RuntimeException e) {
                lastFailure = e;
                throw new TransientCloudException(id, "cloud '" + id + "' has been unreachable since the client"
                        + " opened (next start attempt within " + RETRY_INTERVAL.toSeconds() + " s): " + e, e);
            }
            synchronized (lock) {
                if (!closed) {
                    started = fresh;
                    LOG.info("cloud {} started after being unreachable when the client opened", id);
                    return fresh;
                }
            }
            try {
                fresh.close(); // started after the client closed: nobody else will close it
            } catch (RuntimeException e) {
                LOG.warn("closing cloud {}, started after the client closed, failed", id, e);
            }
            throw closedException();
        }
    }

    private TransientCloudException closedException() {
        return new TransientCloudException(id, "cloud '" + id + "' is closed", lastFailure);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void put(String objectKey, byte[] value) {
        store().put(objectKey, value);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        return store().get(objectKey, maxBytes);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes, ByteConsumer onBytes) {
        return store().get(objectKey, maxBytes, onBytes);
    }

    @Override
    public List<CloudObject> list(String prefix) {
        return store().list(prefix);
    }

    @Override
    public void delete(String objectKey) {
        store().delete(objectKey);
    }

    @Override
    public void close() {
        CloudStore s;
        synchronized (lock) {
            closed = true;
            s = started;
        }
        if (s != null) {
            s.close();
        }
    }

    @Override
    public String toString() {
        return "DeferredCloudStore[" + id + (started != null ? ", started" : ", unreachable") + "]";
    }
}
