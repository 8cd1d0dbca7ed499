/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CacheSettings;
import io.hybris.CacheStats;
import io.hybris.Consistency;
import io.hybris.HybrisListener;
import io.hybris.HybrisListener.CacheResult;
import io.hybris.InvalidRequestException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.ValueCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's use of a {@link ValueCache} (paper §4.4 caching, §3.10 weaker consistency), in one place so the
 * protocol calls it at a few points: write-through beside the uploads of a PUT, after a commit, before the cloud
 * fetch of a GET, after a GET, and for the weak reads. Without a cache every method is a no-op (or a miss).
 *
 * <p>Trust: versioned entries ({@code <prefix><container>/<key>#<sn>_<client>}, the cloud object names) hold the
 * stored bytes exactly as on the clouds (ciphertext when encrypted) and are checked against the hash and size in
 * the trusted metadata (linearizable reads) or in this client's own record of its write (read-your-writes);
 * a mismatch is a miss and evicts the entry. Plain-key entries (bounded staleness) carry their own metadata, see
 * {@link CacheEntryCodec}. Every cache failure is a miss with a rate-limited warning, never a failed call.
 * Thread-safe.
 */
public final class CacheLayer {
    private static final Logger LOG = LoggerFactory.getLogger(CacheLayer.class);
    /** How many of this client's own writes read-your-writes remembers (least recently used forgotten first). */
    static final int OWN_WRITES_CAPACITY = 100_000;

    private final CacheSettings settings;
    private final ValueCache cache;
    private final String prefix;
    private final ExecutorService io;
    private final Clock clock;
    private final long maxValueSize;
    private final HybrisListener listener;
    /** Whether a plain-key entry of a version would be served by this client's weak reads (not forgeable). */
    private final java.util.function.Predicate<Metadata> servableWeakly;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder bypassed = new LongAdder();
    private final LongAdder stores = new LongAdder();
    private final RateLimitedWarning warning = new RateLimitedWarning(LOG, TimeUnit.SECONDS.toNanos(30));
    private final Map<MetadataKey, OwnWrite> ownWrites = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<MetadataKey, OwnWrite> eldest) {
            return size() > OWN_WRITES_CAPACITY;
        }
    };

    /**
     * This client's latest write of a key for read-your-writes ({@code meta}; null once forgotten: read
     * linearizably), and the newest timestamp it recorded for the key: an older write of this client that completes
     * later (linearized before a newer one, which overwrote it) is never recorded over it, forgotten or not.
     */
    private record OwnWrite(Metadata meta, Timestamp newest) {
    }

    /**
     * A value served by a weak read: the version's metadata and its stored bytes (null for a deletion); or
     * {@link #UNAVAILABLE}.
     */
    public record Found(Metadata meta, byte[] stored) {
        /**
         * The cache failed (error, timeout): the read falls back to a linearizable one that does not ask the cache
         * again, so the GET waits for the cache at most once.
         */
        public static final Found UNAVAILABLE = new Found(null, null);
    }

    /** The known-current time of a bounded-versions barrier entry ({@link #evictVersionsEntries}). */
    private static final long BARRIER = -1;

    /** What {@link #fetch} returns when the cache call failed (compared by identity). */
    private static final byte[] FAILED = new byte[0];

    /** A write-through in flight; {@link #discard()} removes the entry again if the PUT did not commit. */
    public final class Pending {
        private final Future<?> write;
        private final String cacheKey;

        private Pending(Future<?> write, String cacheKey) {
            this.write = write;
            this.cacheKey = cacheKey;
        }

        /** Deletes the entry once its write finished (the version was never committed). */
        public void discard() {
            if (write == null) {
                return;
            }
            async(() -> {
                try {
                    write.get(1, TimeUnit.MINUTES);
                } catch (Exception ignored) {
                    // the write failed or hangs: delete anyway
                }
                call("evict " + cacheKey, () -> {
                    cache.delete(cacheKey);
                    return null;
                });
            });
        }
    }

    /**
     * @param settings the cache settings
     * @param cache    the cache, or null for none
     * @param prefix   the object-name prefix (cache keys are the cloud object names)
     * @param io       runs the asynchronous cache writes
     * @param clock    the wall clock stamped into time-bounded entries
     * @param listener told of every lookup's result
     * @param servableWeakly whether this client's weak reads would serve a plain-key entry of a version; no other
     *                       entry is written (the key's is evicted instead)
     */
    public CacheLayer(CacheSettings settings, ValueCache cache, String prefix, ExecutorService io, Clock clock,
                      HybrisListener listener, java.util.function.Predicate<Metadata> servableWeakly) {
        this.listener = listener;
        this.servableWeakly = servableWeakly;
        this.settings = settings;
        this.cache = cache;
        this.prefix = prefix;
        this.io = io;
        this.clock = clock;
        this.maxValueSize = cache == null ? 0 : cache.maxValueSize();
    }

    /** Whether a cache is in use. */
    public boolean enabled() {
        return cache != null;
    }

    /** The wall-clock time to stamp on what is about to be read or committed. */
    public long now() {
        return clock.millis();
    }

    /** The counters. */
    public CacheStats stats() {
        return new CacheStats(hits.sum(), misses.sum(), rejected.sum(), errors.sum(), bypassed.sum(), stores.sum());
    }

    /** Whether {@code stored} are the bytes {@code meta} describes (size and SHA-256). */
    static boolean matches(Metadata meta, byte[] stored) {
        return stored != null && stored.length == meta.size() && Hashing.matches(meta.sha256(), Hashing.sha256(stored));
    }

    // ------------------------------------------------------------------ PUT

    /** Starts writing a version to the cache in parallel with the uploads (write-through policy). */
    public Pending writeThrough(String container, String key, Timestamp ts, byte[] stored) {
        if (cache == null || !settings.writeThrough() || !fits(stored.length)) {
            return new Pending(null, null);
        }
        String cacheKey = versionKey(container, key, ts);
        return new Pending(async(() -> store(cacheKey, stored, settings.expiry())), cacheKey);
    }

    /**
     * The η counter of bounded staleness by versions (paper §3.10) to record in a new version's metadata: one more
     * than the replaced version's, or 0 when it reaches η (this version is then cached under the plain key after
     * the commit); 0 without a cache or without η.
     */
    public int counterAfter(Metadata replaced) {
        int eta = settings.stalenessVersions();
        if (cache == null || eta == 0) {
            return 0;
        }
        int before = replaced == null || replaced.isTombstone() ? 0 : replaced.cacheCounter();
        return before + 1 >= eta ? 0 : before + 1;
    }

    /**
     * After a committed PUT, TPUT or DELETE ({@code meta} a tombstone, {@code stored} null): remembers it for
     * read-your-writes, writes the version to the cache if that has not started yet, and refreshes the
     * bounded-staleness entries.
     *
     * @param knownAt a time at or before the commit's linearization point
     * @param cached  the PUT's write-through (which already wrote or bypassed the version), or null (TPUT, DELETE)
     */
    public void committed(String container, String key, Metadata meta, byte[] stored, long knownAt, Pending cached) {
        if (cache == null) {
            return;
        }
        MetadataKey mk = new MetadataKey(container, key);
        synchronized (ownWrites) {
            OwnWrite before = ownWrites.get(mk);
            if (before == null || !before.newest().isAfter(meta.timestamp())) {
                ownWrites.put(mk, new OwnWrite(meta, meta.timestamp()));
            }
        }
        if (!meta.isTombstone() && settings.writeThrough() && cached == null && fits(stored.length)) {
            String cacheKey = versionKey(container, key, meta.timestamp());
            async(() -> store(cacheKey, stored, settings.expiry()));
        }
        refreshPlain(container, key, meta, stored, knownAt, meta.cacheCounter() == 0);
    }

    /**
     * After a PUT or DELETE that failed or whose outcome is unknown ({@code replaced}: the timestamp of the version
     * it read as current, null if none): forget the key for read-your-writes, discard the write-through, and evict
     * the key's bounded-versions entry ({@link #evictVersionsEntries}).
     */
    public void writeFailed(String container, String key, Timestamp replaced, Pending cached) {
        if (cache == null) {
            return;
        }
        forgetOwnWrite(container, key);
        if (cached != null) {
            cached.discard();
        }
        evictVersionsEntries(container, java.util.Collections.singletonMap(key, replaced));
    }

    /**
     * {@link #writeFailed} for every key of a TPUT that failed or whose outcome is unknown ({@code replaced}: by key,
     * the timestamp of the version it read, null if none).
     */
    public void writeAllFailed(String container, Map<String, Timestamp> replaced) {
        if (cache == null) {
            return;
        }
        replaced.keySet().forEach(k -> forgetOwnWrite(container, k));
        evictVersionsEntries(container, replaced);
    }

    /**
     * Evicts the bounded-versions entries of the keys of {@code failed} before the write's caller sees its failure.
     * The write may have landed as a version with counter 0 (a DELETE and a TPUT always do) that no refresh will
     * cache; the older entry would then be served as one of the η newest versions while η further writes go by.
     * The entry is replaced by a barrier, not deleted: a miss for reads, which a refresh replaces only with a version
     * at least as new as the one the failed write replaced, so a refresh of an older version still in flight (a
     * GET's, any client's) cannot bring an older entry back, while the next GET caches that version again if the
     * write did not land (a key that had no version: deleted, as before). Stops at the first failing call: a
     * failing cache fails the reads of those entries alike, and the rest is best effort, as after a failed refresh.
     * An interrupted write (its outcome unknown) still evicts: the interrupt is set again after.
     */
    private void evictVersionsEntries(String container, Map<String, Timestamp> failed) {
        if (settings.stalenessVersions() == 0) {
            return;
        }
        boolean interrupted = Thread.interrupted();
        try {
            for (Map.Entry<String, Timestamp> f : failed.entrySet()) {
                String cacheKey = plainKey(CacheEntryCodec.KIND_VERSIONS, container, f.getKey());
                byte[] barrier = f.getValue() == null ? null : CacheEntryCodec.encode(CacheEntryCodec.KIND_VERSIONS,
                        BARRIER, container + "/" + f.getKey(), Metadata.tombstone(f.getValue()), null);
                if (call("evict " + cacheKey, () -> {
                    if (barrier == null) {
                        cache.delete(cacheKey);
                    } else {
                        cache.put(cacheKey, barrier, settings.expiry());
                    }
                    return Boolean.TRUE;
                }) == null) {
                    return;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Forgets this client's write of the key for read-your-writes: a write that failed, or one this client saw
     * superseded (a DELETE that found the key already deleted by another client): its next read is linearizable.
     */
    public void forgetOwnWrite(String container, String key) {
        if (cache == null) {
            return;
        }
        MetadataKey mk = new MetadataKey(container, key);
        synchronized (ownWrites) {
            OwnWrite before = ownWrites.get(mk);
            if (before != null) {
                ownWrites.put(mk, new OwnWrite(null, before.newest()));
            }
        }
    }

    // ------------------------------------------------------------------ GET

    /** Before the cloud fetch: the stored bytes of {@code meta}'s version from the cache, verified; null on a miss. */
    public byte[] lookup(String container, String key, Metadata meta) {
        byte[] got = lookupOrFailed(container, key, meta);
        return got == FAILED ? null : got;
    }

    /** As {@link #lookup}, but {@link #FAILED} when the cache call failed. */
    private byte[] lookupOrFailed(String container, String key, Metadata meta) {
        if (cache == null) {
            return null;
        }
        if (meta.size() > maxValueSize) {
            return null; // never cached (counted as bypassed when it was offered)
        }
        String cacheKey = versionKey(container, key, meta.timestamp());
        byte[] got = fetch(cacheKey);
        if (got == null || got == FAILED) {
            misses.increment();
            listener.cacheLookup(CacheResult.MISS);
            return got;
        }
        if (!matches(meta, got)) {
            reject(cacheKey, got.length + " bytes that do not match the metadata hash of " + meta.timestamp());
            return null;
        }
        hits.increment();
        listener.cacheLookup(CacheResult.HIT);
        return got;
    }

    /**
     * After a GET found {@code meta}'s version (from the cache if {@code fromCache}, else from a cloud): fills the
     * cache asynchronously (cache-on-read policy) and refreshes this client's bounded-staleness entries.
     *
     * @param knownAt a time before the metadata read that found {@code meta} current
     */
    public void served(String container, String key, Metadata meta, byte[] stored, boolean fromCache, long knownAt) {
        if (cache == null) {
            return;
        }
        if (!fromCache && settings.fillOnRead() && fits(stored.length)) {
            String cacheKey = versionKey(container, key, meta.timestamp());
            async(() -> store(cacheKey, stored, settings.expiry()));
        }
        refreshPlain(container, key, meta, stored, knownAt, true);
    }

    // ------------------------------------------------------------------ weak reads

    /**
     * A read in a weaker consistency mode without the metadata store: the value from the cache if this mode may
     * return it, or null to fall back to a linearizable read ({@link Found#UNAVAILABLE}: one that skips the cache).
     *
     * @throws InvalidRequestException if the mode is not configured on this client
     */
    public Found weakRead(Consistency consistency, String container, String key) {
        if (consistency == Consistency.LINEARIZABLE) {
            return null;
        }
        if (cache == null) {
            throw new InvalidRequestException(consistency + " reads need a value cache: configure hybris.cache.type");
        }
        return switch (consistency) {
            case READ_YOUR_WRITES -> ownWrite(container, key);
            case BOUNDED_STALENESS_TIME -> {
                if (settings.stalenessTime().isZero()) {
                    throw new InvalidRequestException("bounded-time reads need hybris.cache.staleness.time (Δ)");
                }
                yield plain(CacheEntryCodec.KIND_TIME, container, key);
            }
            case BOUNDED_STALENESS_VERSIONS -> {
                if (settings.stalenessVersions() == 0) {
                    throw new InvalidRequestException("bounded-versions reads need hybris.cache.staleness.versions (η)");
                }
                yield plain(CacheEntryCodec.KIND_VERSIONS, container, key);
            }
            default -> null;
        };
    }

    /**
     * A value a weak read returned could not be opened (decryption failed), or, for a chunked value, its chunks are
     * gone (a newer version replaced it and they were collected): evict its entry.
     */
    public void unusable(Consistency consistency, String container, String key, Metadata meta, RuntimeException why) {
        String cacheKey = switch (consistency) {
            case BOUNDED_STALENESS_TIME -> plainKey(CacheEntryCodec.KIND_TIME, container, key);
            case BOUNDED_STALENESS_VERSIONS -> plainKey(CacheEntryCodec.KIND_VERSIONS, container, key);
            default -> versionKey(container, key, meta.timestamp());
        };
        hits.decrement();
        reject(cacheKey, "a value that cannot be read (" + why.getMessage() + ")");
    }

    private Found ownWrite(String container, String key) {
        Metadata own;
        synchronized (ownWrites) {
            OwnWrite recorded = ownWrites.get(new MetadataKey(container, key));
            own = recorded == null ? null : recorded.meta();
        }
        if (own == null) {
            return null; // not written by this client (or forgotten): a linearizable read
        }
        if (own.isTombstone()) {
            hits.increment();
            listener.cacheLookup(CacheResult.HIT);
            return new Found(own, null);
        }
        byte[] stored = lookupOrFailed(container, key, own);
        return stored == FAILED ? Found.UNAVAILABLE : stored == null ? null : new Found(own, stored);
    }

    private Found plain(int kind, String container, String key) {
        String cacheKey = plainKey(kind, container, key);
        byte[] got = fetch(cacheKey);
        if (got == null || got == FAILED) {
            misses.increment();
            listener.cacheLookup(CacheResult.MISS);
            return got == FAILED ? Found.UNAVAILABLE : null;
        }
        CacheEntryCodec.Entry e;
        try {
            e = CacheEntryCodec.decode(got, kind, container + "/" + key);
        } catch (IllegalArgumentException bad) {
            reject(cacheKey, "an invalid entry (" + bad.getMessage() + ")");
            return null;
        }
        if (e.knownAtMillis() == BARRIER) { // a write failed: the linearizable read that follows refreshes it
            misses.increment();
            listener.cacheLookup(CacheResult.MISS);
            return null;
        }
        if (kind == CacheEntryCodec.KIND_TIME) {
            long age = clock.millis() - e.knownAtMillis();
            if (age > settings.stalenessTime().toMillis()) {
                // memcached's expiry is whole seconds: the entry's own time is the exact bound. The entry is left
                // in place, never served: the linearizable read that follows replaces it (compare-and-set), and
                // an eviction racing that refresh could delete the fresh entry instead of this one.
                misses.increment();
                listener.cacheLookup(CacheResult.MISS);
                return null;
            }
        }
        hits.increment();
        listener.cacheLookup(CacheResult.HIT);
        return new Found(e.meta(), e.meta().isTombstone() ? null : e.stored());
    }

    // ------------------------------------------------------------------ plain-key entries

    private void refreshPlain(String container, String key, Metadata meta, byte[] stored, long knownAt,
                              boolean versionsDue) {
        if (!settings.stalenessTime().isZero()) {
            async(() -> storePlain(CacheEntryCodec.KIND_TIME, container, key, meta, stored, knownAt,
                    settings.stalenessTime()));
        }
        if (settings.stalenessVersions() > 0 && versionsDue) {
            async(() -> storePlain(CacheEntryCodec.KIND_VERSIONS, container, key, meta, stored, knownAt,
                    settings.expiry()));
        }
    }

    /**
     * Writes a plain-key entry unless the cache already holds a newer version there (compare-and-set, so a slow
     * writer never replaces a newer entry with an older one). A version whose data key is kept unwrapped in
     * metadata is never written here: the cache would then hold both ciphertext and key. Nor is one this client's
     * weak reads would refuse as forgeable (a deletion or a chunked value, for a client that encrypts): the key's
     * entry is evicted instead, as a stale one must not outlive this write.
     */
    private void storePlain(int kind, String container, String key, Metadata meta, byte[] stored, long knownAt,
                            Duration expiry) {
        String cacheKey = plainKey(kind, container, key);
        String name = container + "/" + key;
        if (!servableWeakly.test(meta)) {
            bypassed.increment();
            call("evict " + cacheKey, () -> {
                cache.delete(cacheKey);
                return null;
            });
            return;
        }
        byte[] entry = CacheEntryCodec.encode(kind, knownAt, name, meta, stored);
        if (!fits(entry.length)) {
            bypassed.increment();
            call("evict " + cacheKey, () -> {
                cache.delete(cacheKey);
                return null;
            });
            return;
        }
        Boolean done = call("update " + cacheKey, () -> {
            for (int attempt = 0; attempt < 4; attempt++) {
                Optional<ValueCache.Versioned> current = cache.getVersioned(cacheKey);
                if (current.isEmpty()) {
                    if (cache.putIfAbsent(cacheKey, entry, expiry)) {
                        stores.increment();
                        return true;
                    }
                    continue;
                }
                CacheEntryCodec.Entry there = null;
                try {
                    there = CacheEntryCodec.decode(current.get().value(), kind, name);
                } catch (IllegalArgumentException invalid) {
                    // replace it
                }
                if (there != null) {
                    int order = there.meta().timestamp().compareTo(meta.timestamp());
                    if (order > 0 || (order == 0 && there.knownAtMillis() >= knownAt)) {
                        return true; // as new or newer already
                    }
                }
                if (cache.compareAndSet(cacheKey, entry, expiry, current.get().casToken())) {
                    stores.increment();
                    return true;
                }
            }
            return true; // lost every race to other writers, whose entries are at least as recent
        });
        if (done == null && kind == CacheEntryCodec.KIND_VERSIONS) {
            // the η bound needs this refresh; at least do not leave the old entry behind
            call("evict " + cacheKey, () -> {
                cache.delete(cacheKey);
                return null;
            });
        }
    }

    // ------------------------------------------------------------------ helpers

    /** The cache key of one version: its cloud object name. */
    String versionKey(String container, String key, Timestamp ts) {
        return new ObjectKey(container, key, ts).render(prefix);
    }

    /** The plain (unversioned) cache key of a bounded-staleness entry. */
    String plainKey(int kind, String container, String key) {
        return ObjectKey.keyPrefix(prefix, container, key) + (kind == CacheEntryCodec.KIND_TIME ? "~time" : "~versions");
    }

    private boolean fits(long size) {
        if (size <= maxValueSize) {
            return true;
        }
        bypassed.increment();
        return false;
    }

    /** The entry under {@code cacheKey}; null if absent, {@link #FAILED} if the cache failed. */
    private byte[] fetch(String cacheKey) {
        Optional<byte[]> got = call("get " + cacheKey, () -> cache.get(cacheKey));
        return got == null ? FAILED : got.orElse(null);
    }

    private void store(String cacheKey, byte[] value, Duration expiry) {
        Object ok = call("put " + cacheKey, () -> {
            cache.put(cacheKey, value, expiry);
            return Boolean.TRUE;
        });
        if (ok != null) {
            stores.increment();
        }
    }

    private void reject(String cacheKey, String what) {
        rejected.increment();
        misses.increment();
        listener.cacheLookup(CacheResult.REJECTED);
        LOG.warn("value cache {} returned {} for '{}'; evicted it and read from the clouds", cache.describe(), what,
                cacheKey);
        async(() -> call("evict " + cacheKey, () -> {
            cache.delete(cacheKey);
            return null;
        }));
    }

    /** Runs a cache call; a failure is counted, logged (rate-limited) and returned as null. */
    private <T> T call(String what, java.util.function.Supplier<T> op) {
        try {
            return op.get();
        } catch (RuntimeException e) {
            errors.increment();
            warning.warn("value cache " + cache.describe() + " failed (" + what + "); reading from the clouds", e);
            return null;
        }
    }

    private Future<?> async(Runnable task) {
        try {
            return io.submit(task);
        } catch (RejectedExecutionException closed) {
            return null;
        }
    }
}
