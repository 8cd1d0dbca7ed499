/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * A value cache on private premises (paper §4.4), e.g. memcached: a plain key-value store of byte arrays with
 * per-entry expiry. Hybris never trusts what it reads back: entries under versioned keys are checked against the
 * SHA-256 in metadata like any cloud read, and a mismatch counts as a miss and evicts the entry.
 *
 * <p>Keys are arbitrary non-empty strings (Hybris passes versioned object names such as
 * {@code hybris/photos/cat.jpg#3_c1}); an implementation maps them injectively onto whatever its server accepts.
 *
 * <p>Every call must finish within the implementation's configured timeout (short: a cache that is slower than
 * the clouds is useless) and report any failure by throwing {@link ValueCacheException}. The engine treats every
 * failure as a miss, logs a rate-limited warning and reads from the clouds: a cache outage never fails a GET.
 * Implementations are thread-safe. Register a factory as a {@link ValueCacheProvider}.
 */
public interface ValueCache extends AutoCloseable {

    /** An entry with the server's compare-and-swap token, for {@link #compareAndSet}. */
    record Versioned(byte[] value, long casToken) {
    }

    /**
     * The largest value (in bytes) this cache stores; Hybris does not offer larger values to the cache at all
     * (they bypass it and are counted as such).
     */
    long maxValueSize();

    /** The value under {@code key}, or empty if absent. */
    Optional<byte[]> get(String key);

    /** The value under {@code key} with its compare-and-swap token, or empty if absent. */
    Optional<Versioned> getVersioned(String key);

    /**
     * Stores {@code value} under {@code key}, replacing any entry.
     *
     * @param expiry how long the entry may live; {@link Duration#ZERO} for no expiry (the server may still evict
     *               it at any time). Implementations round up to their resolution (memcached: whole seconds).
     */
    void put(String key, byte[] value, Duration expiry);

    /** Stores {@code value} only if no entry exists under {@code key}; returns whether it was stored. */
    boolean putIfAbsent(String key, byte[] value, Duration expiry);

    /**
     * Replaces the entry under {@code key} only if it is unchanged since {@link #getVersioned} returned
     * {@code casToken}; returns whether it was replaced.
     */
    boolean compareAndSet(String key, byte[] value, Duration expiry, long casToken);

    /** Removes the entry under {@code key}, if any. */
    void delete(String key);

    /** A short description for logs, e.g. {@code memcached[127.0.0.1:11211]}. */
    String describe();

    /** Releases connections; idempotent. */
    @Override
    void close();
}
