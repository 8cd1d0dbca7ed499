/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.ValueCache;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link ValueCache} in a map, for tests. */
final class MapCache implements ValueCache {
    /** The entries, by cache key; tests read and tamper with them. */
    final Map<String, Versioned> entries = new ConcurrentHashMap<>();
    private final AtomicLong cas = new AtomicLong();

    @Override
    public long maxValueSize() {
        return 1 << 20;
    }

    @Override
    public Optional<byte[]> get(String key) {
        return Optional.ofNullable(entries.get(key)).map(Versioned::value);
    }

    @Override
    public Optional<Versioned> getVersioned(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    @Override
    public void put(String key, byte[] value, Duration expiry) {
        entries.put(key, new Versioned(value.clone(), cas.incrementAndGet()));
    }

    @Override
    public synchronized boolean putIfAbsent(String key, byte[] value, Duration expiry) {
        return entries.putIfAbsent(key, new Versioned(value.clone(), cas.incrementAndGet())) == null;
    }

    @Override
    public synchronized boolean compareAndSet(String key, byte[] value, Duration expiry, long casToken) {
        Versioned now = entries.get(key);
        if (now == null || now.casToken() != casToken) {
            return false;
        }
        entries.put(key, new Versioned(value.clone(), cas.incrementAndGet()));
        return true;
    }

    @Override
    public void delete(String key) {
        entries.remove(key);
    }

    @Override
    public String describe() {
        return "map cache";
    }

    @Override
    public void close() {
    }
}
