/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.spi.ValueCache;
import io.hybris.spi.ValueCacheException;
import net.rubyeye.xmemcached.GetsResponse;
import net.rubyeye.xmemcached.MemcachedClient;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link ValueCache} on one or more memcached servers through xmemcached (keys spread by consistent hashing).
 * Values are stored raw ({@link RawBytesTranscoder}); keys are mapped by {@link MemcachedKeys}. Every call waits
 * at most the configured operation timeout, and every failure (no connection, timeout, server error) becomes a
 * {@link ValueCacheException}. xmemcached reconnects in the background, so a server that was down at start or
 * restarted is used again once it is back. Thread-safe.
 */
public final class MemcachedValueCache implements ValueCache {
    /** Room left in memcached's item-size limit for the item header and key. */
    static final int ITEM_OVERHEAD = 512;
    /** memcached's largest relative expiry; longer ones are read as absolute Unix times. */
    private static final long MAX_RELATIVE_EXPIRY_SECONDS = 30L * 24 * 3600;

    private final MemcachedClient client;
    private final String servers;
    private final long timeoutMillis;
    private final long maxValueSize;
    private final AtomicBoolean closed = new AtomicBoolean();

    MemcachedValueCache(MemcachedClient client, String servers, Duration timeout, long maxItemSize) {
        this.client = client;
        this.servers = servers;
        this.timeoutMillis = Math.max(1, timeout.toMillis());
        this.maxValueSize = Math.max(0, maxItemSize - ITEM_OVERHEAD);
    }

    @Override
    public long maxValueSize() {
        return maxValueSize;
    }

    @Override
    public Optional<byte[]> get(String key) {
        String k = MemcachedKeys.toMemcached(key);
        return Optional.ofNullable(run("get", key, () -> client.get(k, timeoutMillis, RawBytesTranscoder.INSTANCE)));
    }

    @Override
    public Optional<Versioned> getVersioned(String key) {
        String k = MemcachedKeys.toMemcached(key);
        GetsResponse<byte[]> r = run("gets", key, () -> client.gets(k, timeoutMillis, RawBytesTranscoder.INSTANCE));
        return r == null || r.getValue() == null ? Optional.empty() : Optional.of(new Versioned(r.getValue(), r.getCas()));
    }

    @Override
    public void put(String key, byte[] value, Duration expiry) {
        String k = MemcachedKeys.toMemcached(key);
        boolean stored = run("set", key,
                () -> client.set(k, seconds(expiry), value, RawBytesTranscoder.INSTANCE, timeoutMillis));
        if (!stored) {
            throw new ValueCacheException("memcached " + servers + " did not store '" + key + "' (" + value.length
                    + " bytes; is it above the server's item-size limit, memcached -I?)");
        }
    }

    @Override
    public boolean putIfAbsent(String key, byte[] value, Duration expiry) {
        String k = MemcachedKeys.toMemcached(key);
        return run("add", key, () -> client.add(k, seconds(expiry), value, RawBytesTranscoder.INSTANCE, timeoutMillis));
    }

    @Override
    public boolean compareAndSet(String key, byte[] value, Duration expiry, long casToken) {
        String k = MemcachedKeys.toMemcached(key);
        return run("cas", key,
                () -> client.cas(k, seconds(expiry), value, RawBytesTranscoder.INSTANCE, timeoutMillis, casToken));
    }

    @Override
    public void delete(String key) {
        String k = MemcachedKeys.toMemcached(key);
        run("delete", key, () -> client.delete(k, timeoutMillis));
    }

    @Override
    public String describe() {
        return "memcached[" + servers + "]";
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                client.shutdown();
            } catch (IOException e) {
                throw new ValueCacheException("closing memcached client for " + servers + " failed: " + e, e);
            }
        }
    }

    /** memcached expiry: whole seconds, rounded up; 0 = none. Beyond 30 days memcached wants an absolute time. */
    static int seconds(Duration expiry) {
        if (expiry.isZero() || expiry.isNegative()) {
            return 0;
        }
        long s = (expiry.toMillis() + 999) / 1000;
        if (s > MAX_RELATIVE_EXPIRY_SECONDS) {
            return (int) Math.min(Integer.MAX_VALUE, System.currentTimeMillis() / 1000 + s);
        }
        return (int) s;
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private <T> T run(String op, String key, Call<T> call) {
        if (closed.get()) {
            throw new ValueCacheException("memcached client for " + servers + " is closed");
        }
        try {
            return call.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ValueCacheException("memcached " + op + " of '" + key + "' interrupted", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new ValueCacheException("memcached " + servers + " did not answer " + op + " of '" + key
                    + "' within " + timeoutMillis + " ms", e);
        } catch (Exception e) {
            throw new ValueCacheException("memcached " + servers + " failed " + op + " of '" + key + "': " + e, e);
        }
    }
}
