/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.MetadataKey;

import java.util.List;
import java.util.Map;

/**
 * The value-cache step on the read and write paths (paper §4.4 caching, §3.10 weaker consistency), in front of
 * the protocol's own {@link VersionPath}: a read is answered from the cache when the cached bytes match the
 * metadata, and fills the cache afterwards; a write goes through to the cache beside its uploads, records the
 * bounded-staleness counter, and refreshes the cache entries once committed (or forgets them when the write failed
 * or its outcome is unknown). Only installed when a cache is configured. Thread-safe.
 */
final class CachingPath implements WritePath, ReadPath {
    private final CacheLayer cache;
    private final WritePath writes;
    private final ReadPath reads;

    CachingPath(CacheLayer cache, WritePath writes, ReadPath reads) {
        this.cache = cache;
        this.writes = writes;
        this.reads = reads;
    }

    @Override
    public byte[] read(MetadataKey key, Current current, Deadline d, List<Throwable> failures) {
        Metadata meta = current.meta();
        byte[] stored = cache.lookup(key.container(), key.key(), meta);
        boolean fromCache = stored != null;
        if (stored == null) {
            stored = reads.read(key, current, d, failures);
        }
        if (stored != null) {
            cache.served(key.container(), key.key(), meta, stored, fromCache, current.readAt());
        }
        return stored;
    }

    /**
     * The read path for a GET whose weak read found the cache failing: from the clouds without asking the cache
     * again (the GET waits for it at most once), filling it afterwards as {@link #read} does.
     */
    ReadPath withoutLookup() {
        return (key, current, d, failures) -> {
            byte[] stored = reads.read(key, current, d, failures);
            if (stored != null) {
                cache.served(key.container(), key.key(), current.meta(), stored, false, current.readAt());
            }
            return stored;
        };
    }

    /**
     * {@inheritDoc}
     *
     * <p>The time stamped on the bounded-staleness entries is taken before the write starts, which is at or before
     * its linearization point, so the staleness bound holds.
     */
    @Override
    public Metadata write(NewVersion v, Deadline d) {
        MetadataKey key = v.key();
        // a PUT without a precondition may complete overwritten, linearized just before a newer write that committed
        // after its metadata read but maybe before now: the time of that read bounds it then
        long knownAt = v.required() == null && !v.isTombstone() ? Math.min(cache.now(), v.replaced().readAt())
                : cache.now();
        byte[] stored = v.sealed() == null ? null : v.sealed().stored();
        CacheLayer.Pending cached = null;
        NewVersion counted = v;
        if (stored != null) { // a chunked value's manifest is cached once it is stored
            cached = cache.writeThrough(key.container(), key.key(), v.timestamp(), stored);
        }
        if (!v.isTombstone()) {
            counted = v.withCacheCounter(cache.counterAfter(v.replaced().meta()));
        }
        Metadata meta;
        try {
            meta = writes.write(counted, d);
        } catch (RuntimeException e) {
            cache.writeFailed(key.container(), key.key(), replacedTimestamp(v), cached);
            throw e;
        }
        if (meta == null) { // a deletion of a key deleted meanwhile: read-your-writes must not serve an older write
            cache.writeFailed(key.container(), key.key(), replacedTimestamp(v), cached);
            return null;
        }
        cache.committed(key.container(), key.key(), meta, v.stored(), knownAt, cached);
        return meta;
    }

    @Override
    public Map<String, Metadata> writeAll(String container, List<NewVersion> versions, Deadline d) {
        long knownAt = cache.now();
        Map<String, Metadata> written;
        try {
            written = writes.writeAll(container, versions, d);
        } catch (RuntimeException e) {
            Map<String, Timestamp> failed = new java.util.LinkedHashMap<>();
            versions.forEach(v -> failed.put(v.key().key(), replacedTimestamp(v)));
            cache.writeAllFailed(container, failed);
            throw e;
        }
        for (NewVersion v : versions) {
            cache.committed(container, v.key().key(), written.get(v.key().key()), v.stored(), knownAt, null);
        }
        return written;
    }

    /** The timestamp of the version {@code v} read as current before it was written; null if the key had none. */
    private static Timestamp replacedTimestamp(NewVersion v) {
        return v.replaced() == null || v.replaced().meta() == null ? null : v.replaced().meta().timestamp();
    }
}
