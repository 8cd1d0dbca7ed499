package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.Consistency;
import io.hybris.CryptoException;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.InvalidRequestException;
import io.hybris.KeyPage;
import io.hybris.RewrapReport;
import io.hybris.SweepReport;
import io.hybris.VersionInfo;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.ValueCache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * The Hybris protocol (paper §3, Algorithm 1), written once over the {@link MetadataStore} and {@link CloudStore}
 * SPIs: PUT, GET (common and worst case), DELETE, LIST, TPUT, KEK rotation and the hooks into garbage collection.
 * Each operation is a short sequence of steps: read the current metadata ({@link MetadataCalls}), order the write
 * after it with a timestamp unique to the call, then hand the version to the write path (store by its
 * {@link Layout} through the cloud-call kernel {@link CloudCalls}, commit with the CAS retry rule of
 * {@link Commits}); a read takes the read path and, when the listed clouds fail, the worst-case read driven by a
 * metadata watch. The value cache, when configured, is a step in front of both paths ({@link CachingPath}).
 * Thread-safe: every call keeps its state on its own stack.
 */
public final class Engine {
    /** Largest number of keys in one transactional put. */
    public static final int MAX_TPUT_KEYS = 1000;
    /** Largest page a list call returns. */
    public static final int MAX_PAGE = 10_000;

    private final String clientId;
    private final WriteIds writeIds = new WriteIds();
    private final String prefix;
    private final Duration deadline;
    private final long maxValueSize;
    private final MetadataStore store;
    private final MetadataCalls metadata;
    private final CloudCalls calls;
    private final Layouts layouts;
    private final LatencyRanking ranking;
    private final LatencyProber prober;
    private final GarbageCollector gc;
    private final HybrisListener listener;
    private final Sealer sealer;
    private final CacheLayer cache;
    private final WritePath writes;
    private final ReadPath reads;
    private final DataKeyRewrap rewrap;

    public Engine(HybrisConfig config, MetadataStore metadata, List<CloudStore> cloudList, ExecutorService io,
                  ExecutorService metadataCalls, ExecutorService gcExecutor) {
        this(config, metadata, cloudList, io, metadataCalls, gcExecutor, null);
    }

    /** An engine that uses {@code valueCache} (null for none) as {@link io.hybris.CacheSettings} say. */
    public Engine(HybrisConfig config, MetadataStore metadata, List<CloudStore> cloudList, ExecutorService io,
                  ExecutorService metadataCalls, ExecutorService gcExecutor, ValueCache valueCache) {
        this.clientId = config.clientId();
        this.prefix = config.objectPrefix();
        this.deadline = config.deadline();
        this.maxValueSize = config.maxValueSize();
        this.store = metadata;
        this.metadata = new MetadataCalls(metadata, metadataCalls, config.clock());
        Map<String, CloudStore> byId = new LinkedHashMap<>();
        cloudList.forEach(c -> byId.put(c.id(), c));
        Map<String, CloudStore> clouds = Map.copyOf(byId);
        List<String> cloudOrder = List.copyOf(byId.keySet());
        this.ranking = new LatencyRanking(cloudOrder, config.timerMin(), config.timerInitial(),
                config.timerMultiplier());
        this.listener = new SafeListener(config.listener());
        this.sealer = new Sealer(config.keyProvider().orElse(null));
        this.gc = new GarbageCollector(byId, metadata, gcExecutor, prefix, config.gcGrace(), config.clock(),
                listener, config.gcEnabled());
        this.prober = new LatencyProber(clouds, cloudOrder, ranking, io, prefix, clientId);
        this.calls = new CloudCalls(clouds, cloudOrder, ranking, listener, io, gc);
        this.layouts = new Layouts(config, calls);
        VersionPath path = new VersionPath(layouts, new Commits(this.metadata, gc), gc, prefix, io, metadataCalls);
        this.cache = new CacheLayer(config.cache(), valueCache, prefix, io, config.clock());
        if (cache.enabled()) {
            CachingPath cached = new CachingPath(cache, path, path);
            this.writes = cached;
            this.reads = cached;
        } else {
            this.writes = path;
            this.reads = path;
        }
        this.rewrap = new DataKeyRewrap(metadata, this.metadata, sealer, deadline);
    }

    /**
     * Marks the engine closed: calls waiting for a metadata store answer stop waiting and fail with
     * {@link io.hybris.ClientClosedException} (a write's outcome is then unknown). The owner shuts the executors
     * down after.
     */
    public void close() {
        metadata.close();
    }

    /** The value cache's counters. */
    public io.hybris.CacheStats cacheStats() {
        return cache.stats();
    }

    /** The latency ranking (for diagnostics). */
    public LatencyRanking ranking() {
        return ranking;
    }

    /**
     * Measures the clouds whose latency estimates are older than {@code maxAge} (or failure penalties), so a
     * cloud that recovered climbs back in the ranking; returns how many cloud/size-class slots were probed.
     */
    public int probeStaleLatencies(Duration maxAge) {
        return prober.probeStale(maxAge.toNanos()).size();
    }

    /** Measures every cloud in every size class in use; returns how many slots were probed. */
    public int probeAllLatencies() {
        return prober.probeAll().size();
    }

    // ------------------------------------------------------------------ PUT / DELETE / TPUT

    /** PUT (paper §3.2): read the current version, order after it, store by layout, commit. */
    public void put(String container, String key, byte[] value) {
        checkValue(key, value);
        Deadline d = Deadline.after(deadline);
        Sealer.Sealed sealed = sealer.seal(value);
        MetadataKey mk = new MetadataKey(container, key);
        Current cur = metadata.read(mk, d);
        writes.write(new WritePath.NewVersion(mk, cur, nextTimestamp(cur), sealed, 0), d);
    }

    /** DELETE (paper §3.7): a tombstone with a newer timestamp; the data is garbage-collected. */
    public void delete(String container, String key) {
        Deadline d = Deadline.after(deadline);
        MetadataKey mk = new MetadataKey(container, key);
        Current cur = metadata.read(mk, d);
        if (!cur.live()) {
            return;
        }
        writes.write(new WritePath.NewVersion(mk, cur, nextTimestamp(cur), null, 0), d);
    }

    /** Transactional PUT (paper §3.6): all values become visible atomically, or none. */
    public void tput(String container, Map<String, byte[]> values) {
        if (values == null || values.isEmpty()) {
            throw new InvalidRequestException("tput needs at least one key and value");
        }
        int maxKeys = Math.min(MAX_TPUT_KEYS, metadata.maxAtomicUpdates());
        if (values.size() > maxKeys) {
            throw new InvalidRequestException("tput of " + values.size() + " keys exceeds the maximum of "
                    + maxKeys + " per transaction" + (maxKeys < MAX_TPUT_KEYS ? " on " + metadata.describe() : "")
                    + "; split it into several transactions");
        }
        values.forEach((k, v) -> {
            Names.checkKey(k);
            checkValue(k, v);
        });
        Map<String, Sealer.Sealed> data = new LinkedHashMap<>();
        values.forEach((k, v) -> data.put(k, sealer.seal(v)));
        Deadline d = Deadline.after(deadline);
        Map<String, Current> read = new LinkedHashMap<>();
        for (String k : data.keySet()) {
            read.put(k, metadata.read(new MetadataKey(container, k), d));
        }
        List<WritePath.NewVersion> versions = new ArrayList<>();
        data.forEach((k, sealed) -> versions.add(new WritePath.NewVersion(new MetadataKey(container, k), read.get(k),
                nextTimestamp(read.get(k)), sealed, 0)));
        writes.writeAll(container, versions, d);
    }

    /** The timestamp of a new write over {@code cur}: the next sequence number, this client, a fresh write id. */
    private Timestamp nextTimestamp(Current cur) {
        return cur.timestamp(clientId).next(clientId, writeIds.next());
    }

    // ------------------------------------------------------------------ GET

    /** GET (paper §3.3 and §3.5). */
    public Optional<byte[]> get(String container, String key) {
        Deadline d = Deadline.after(deadline);
        MetadataKey mk = new MetadataKey(container, key);
        Current cur = metadata.read(mk, d);
        if (!cur.live()) {
            return Optional.empty();
        }
        List<Throwable> failures = new ArrayList<>();
        byte[] dataKey = sealer.dataKey(cur.meta(), mk.toString());
        byte[] stored = reads.read(mk, cur, d, failures);
        if (stored != null) {
            return Optional.of(sealer.open(dataKey, stored));
        }
        listener.worstCaseGet(container, key);
        return worstCaseGet(mk, d, failures);
    }

    /**
     * GET in the given consistency mode (paper §3.10): the weaker modes answer from the value cache without the
     * metadata store when they may, and fall back to the linearizable GET otherwise.
     */
    public Optional<byte[]> get(String container, String key, Consistency consistency) {
        CacheLayer.Found found = cache.weakRead(consistency, container, key);
        if (found != null) {
            if (found.meta().isTombstone()) {
                return Optional.empty();
            }
            try {
                String what = new MetadataKey(container, key).toString();
                return Optional.of(sealer.open(sealer.dataKey(found.meta(), what), found.stored()));
            } catch (CryptoException e) {
                cache.unusable(consistency, container, key, found.meta(), e);
            }
        }
        return get(container, key);
    }

    /**
     * The worst-case GET (paper §3.5): subscribe to the key, run rounds of the version's layout (every listed cloud
     * in parallel, failed ones re-requested with backoff), restart when the metadata changes, give up at the
     * deadline.
     */
    private Optional<byte[]> worstCaseGet(MetadataKey mk, Deadline d, List<Throwable> failures) {
        boolean first = true;
        while (true) {
            if (!first) {
                listener.getRestarted(mk.container(), mk.key());
            }
            first = false;
            Race<byte[]> race = calls.newReadRace();
            Race.Signal changed = new Race.Signal("metadata changed");
            MetadataCalls.Watched watched = metadata.readAndWatch(mk, () -> race.signal(changed), d);
            try {
                Current cur = watched.current();
                if (!cur.live()) {
                    return Optional.empty();
                }
                Metadata meta = cur.meta();
                byte[] dataKey = sealer.dataKey(meta, mk.toString());
                String objectKey = new ObjectKey(mk.container(), mk.key(), meta.timestamp()).render(prefix);
                byte[] stored = layouts.forRead(meta).readRound(race, changed, objectKey, meta, d, failures);
                if (stored != null) {
                    return Optional.of(sealer.open(dataKey, stored));
                }
                // the metadata changed or the round ended: re-read
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CallInterruptedException("get of " + mk + " interrupted", false, e);
            } finally {
                race.cancelAll();
                watched.cancel();
            }
        }
    }

    // ------------------------------------------------------------------ LIST / DESCRIBE / maintenance

    /** LIST (paper §3.7): one page of live keys, from metadata only. */
    public KeyPage list(String container, String prefixFilter, String cursor, int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new InvalidRequestException("page size " + limit + " must be between 1 and " + MAX_PAGE);
        }
        Deadline d = Deadline.after(deadline);
        List<String> keys = new ArrayList<>();
        String after = cursor;
        while (true) {
            String from = after;
            MetadataPage page = metadata.listing(d, "list of " + container,
                    () -> store.list(container, prefixFilter == null ? "" : prefixFilter, from, limit));
            for (MetadataEntry e : page.entries()) {
                after = e.key();
                if (!MetadataCodec.decode(e.value()).isTombstone()) {
                    keys.add(e.key());
                    if (keys.size() == limit) {
                        boolean more = page.hasMore() || page.entries().indexOf(e) < page.entries().size() - 1;
                        return new KeyPage(keys, more ? Optional.of(e.key()) : Optional.empty());
                    }
                }
            }
            if (!page.hasMore()) {
                return new KeyPage(keys, Optional.empty());
            }
        }
    }

    /** The metadata of a key's current value; empty if absent or deleted. */
    public Optional<VersionInfo> describe(String container, String key) {
        Current cur = metadata.read(new MetadataKey(container, key), Deadline.after(deadline));
        if (!cur.live()) {
            return Optional.empty();
        }
        Metadata m = cur.meta();
        return Optional.of(new VersionInfo(m.timestamp().sn(), m.timestamp().clientId(), m.clouds(), m.size(),
                Hashing.hex(m.sha256()), m.timestamp().toString()));
    }

    /** KEK rotation (see {@link DataKeyRewrap}). */
    public RewrapReport rewrapDataKeys() {
        return rewrap.run();
    }

    /** The orphan sweep (see {@link GarbageCollector#sweep()}). */
    public SweepReport sweep() {
        return gc.sweep();
    }

    private void checkValue(String key, byte[] value) {
        if (value == null) {
            throw new InvalidRequestException("value for key '" + key + "' must not be null; use delete to remove a key");
        }
        if (value.length > maxValueSize) {
            throw new InvalidRequestException("value for key '" + key + "' is " + value.length
                    + " bytes, above hybris.value.max-size=" + maxValueSize + "; raise the limit or split the value");
        }
    }
}
