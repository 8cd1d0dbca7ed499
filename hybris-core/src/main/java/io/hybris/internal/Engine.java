package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.ConcurrentOverwriteException;
import io.hybris.HybrisException;
import io.hybris.ValueTooLargeException;
import io.hybris.Consistency;
import io.hybris.CryptoException;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.InvalidRequestException;
import io.hybris.KeyPage;
import io.hybris.RewrapReport;
import io.hybris.SweepReport;
import io.hybris.VersionInfo;
import io.hybris.crypto.ValueCipher;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
    /** Largest value the {@code byte[]} calls take or return: what one array holds. */
    public static final int MAX_ARRAY = Integer.MAX_VALUE - 64;
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
    private final ChunkedWriter chunkedWriter;
    private final long chunkThreshold;
    private final int readAhead;
    private final ExecutorService io;
    private final Set<ChunkedReader> openStreams = ConcurrentHashMap.newKeySet();

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
        this.io = io;
        this.chunkThreshold = config.chunkThreshold();
        this.readAhead = config.chunkReadAhead();
        this.chunkedWriter = new ChunkedWriter(layouts, sealer, gc, io, prefix, config.chunkSize(),
                config.chunkParallelUploads(), deadline, config.gcEnabled() ? config.gcGrace() : Duration.ZERO);
        VersionPath path = new VersionPath(layouts, chunkedWriter, new Commits(this.metadata, gc), gc, prefix, io,
                metadataCalls);
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
        openStreams.forEach(r -> r.closeBecause("the client was closed while the value was being read"));
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
    public VersionInfo put(String container, String key, byte[] value) {
        checkValue(key, value);
        if (value.length > chunkThreshold) {
            return putChunked(new MetadataKey(container, key), ValueSource.of(value, maxValueSize, what(container, key)));
        }
        return putWhole(new MetadataKey(container, key), value);
    }

    private VersionInfo putWhole(MetadataKey mk, byte[] value) {
        Deadline d = Deadline.after(deadline);
        Sealer.Sealed sealed = sealer.seal(value);
        Current cur = metadata.read(mk, d);
        return info(writes.write(new WritePath.NewVersion(mk, cur, nextTimestamp(cur), sealed, null, 0), d));
    }

    /**
     * PUT of a value read from a stream of {@code length} bytes ({@link ValueSource#UNKNOWN_LENGTH} if unknown):
     * a value up to {@code hybris.chunk.threshold} is stored whole, a larger one in chunks (docs/streaming.md),
     * each chunk by the container's layout, then its manifest, then the commit by the same rule as any PUT.
     */
    public VersionInfo put(String container, String key, java.io.InputStream in, long length) {
        if (in == null) {
            throw new InvalidRequestException("the stream for key '" + key + "' must not be null; use delete to"
                    + " remove a key");
        }
        if (length < ValueSource.UNKNOWN_LENGTH) {
            throw new InvalidRequestException("length " + length + " of the value for key '" + key + "' is invalid:"
                    + " pass its length in bytes, or -1 if it is not known");
        }
        MetadataKey mk = new MetadataKey(container, key);
        ValueSource source = new ValueSource(in, length, maxValueSize, what(container, key));
        if (length == ValueSource.UNKNOWN_LENGTH || length > chunkThreshold) {
            byte[] head = source.read((int) Math.min(chunkThreshold + 1, Integer.MAX_VALUE - 8));
            if (head.length > chunkThreshold) {
                source.pushBack(head);
                return putChunked(mk, source);
            }
            return putWhole(mk, head);
        }
        return putWhole(mk, source.read((int) length));
    }

    private VersionInfo putChunked(MetadataKey mk, ValueSource source) {
        Deadline d = Deadline.after(deadline);
        Current cur = metadata.read(mk, d);
        WritePath.ChunkedValue chunked = new WritePath.ChunkedValue(source);
        return info(writes.write(new WritePath.NewVersion(mk, cur, nextTimestamp(cur), null, chunked, 0), d));
    }

    private static String what(String container, String key) {
        return "key '" + key + "' in " + container;
    }

    /** DELETE (paper §3.7): a tombstone with a newer timestamp; the data is garbage-collected. */
    public void delete(String container, String key) {
        Deadline d = Deadline.after(deadline);
        MetadataKey mk = new MetadataKey(container, key);
        Current cur = metadata.read(mk, d);
        if (!cur.live()) {
            return;
        }
        writes.write(new WritePath.NewVersion(mk, cur, nextTimestamp(cur), null, null, 0), d);
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
        Deadline d = Deadline.after(deadline);
        Map<String, Current> read = new LinkedHashMap<>();
        for (String k : values.keySet()) {
            read.put(k, metadata.read(new MetadataKey(container, k), d));
        }
        List<WritePath.NewVersion> versions = new ArrayList<>();
        values.forEach((k, v) -> {
            boolean large = v.length > chunkThreshold;
            versions.add(new WritePath.NewVersion(new MetadataKey(container, k), read.get(k),
                    nextTimestamp(read.get(k)), large ? null : sealer.seal(v),
                    large ? new WritePath.ChunkedValue(ValueSource.of(v, maxValueSize, what(container, k))) : null,
                    0));
        });
        writes.writeAll(container, versions, d);
    }

    /** The timestamp of a new write over {@code cur}: the next sequence number, this client, a fresh write id. */
    private Timestamp nextTimestamp(Current cur) {
        return cur.timestamp(clientId).next(clientId, writeIds.next());
    }

    // ------------------------------------------------------------------ GET

    /** GET (paper §3.3 and §3.5). */
    public Optional<byte[]> get(String container, String key) {
        MetadataKey mk = new MetadataKey(container, key);
        Fetched f = fetch(mk, Deadline.after(deadline));
        return f == null ? Optional.empty() : Optional.of(value(mk, f.meta(), f.stored(), f.dataKey()));
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
                MetadataKey mk = new MetadataKey(container, key);
                return Optional.of(value(mk, found.meta(), found.stored(), sealer.dataKey(found.meta(), mk.toString())));
            } catch (CryptoException e) {
                cache.unusable(consistency, container, key, found.meta(), e);
            }
        }
        return get(container, key);
    }

    /** What a read found: the live version's metadata, its verified stored bytes and its data key (or null). */
    private record Fetched(Metadata meta, byte[] stored, byte[] dataKey) {
    }

    /** The common-case read, then the worst case; null if the key is absent or deleted. */
    private Fetched fetch(MetadataKey mk, Deadline d) {
        Current cur = metadata.read(mk, d);
        if (!cur.live()) {
            return null;
        }
        List<Throwable> failures = new ArrayList<>();
        byte[] dataKey = sealer.dataKey(cur.meta(), mk.toString()); // checked before any download
        byte[] stored = reads.read(mk, cur, d, failures);
        if (stored != null) {
            return new Fetched(cur.meta(), stored, dataKey);
        }
        listener.worstCaseGet(mk.container(), mk.key());
        return worstCaseGet(mk, d, failures);
    }

    /** The value of a version from its verified stored bytes (a chunked value's manifest: then its chunks). */
    private byte[] value(MetadataKey mk, Metadata meta, byte[] stored, byte[] dataKey) {
        if (!meta.isChunked()) {
            return sealer.open(dataKey, stored);
        }
        long length = meta.chunked().valueLength();
        if (length > MAX_ARRAY) {
            throw new ValueTooLargeException("the value of " + what(mk.container(), mk.key()) + " has " + length
                    + " bytes, more than one array holds; read it with getStream or getTo", MAX_ARRAY);
        }
        try (ChunkedReader in = chunkedReader(mk, meta, stored, dataKey, 0, length)) {
            byte[] value = new byte[(int) length];
            int n = 0;
            for (int got; n < value.length && (got = in.read(value, n, value.length - n)) > 0; ) {
                n += got;
            }
            if (n != length) {
                throw new HybrisException("the chunks of " + mk + " held " + n + " bytes, its metadata says " + length);
            }
            return value;
        }
    }

    /**
     * A streaming GET of {@code range} of the key's current value; null if the key is absent or deleted. The range
     * is checked against the length in metadata before anything is downloaded; a chunked value then costs the
     * manifest read and fetches only the chunks covering the range, {@code hybris.chunk.read-ahead} at a time.
     */
    public Opened open(String container, String key, io.hybris.ByteRange range) {
        MetadataKey mk = new MetadataKey(container, key);
        Deadline d = Deadline.after(deadline);
        Current cur = metadata.read(mk, d);
        if (!cur.live()) {
            return null;
        }
        long valueLength = valueLength(cur.meta());
        range.firstIn(valueLength); // an invalid range fails before any download
        List<Throwable> failures = new ArrayList<>();
        byte[] dataKey = sealer.dataKey(cur.meta(), mk.toString());
        byte[] stored = reads.read(mk, cur, d, failures);
        Fetched f;
        if (stored != null) {
            f = new Fetched(cur.meta(), stored, dataKey);
        } else {
            listener.worstCaseGet(container, key);
            f = worstCaseGet(mk, d, failures);
            if (f == null) {
                return null;
            }
            valueLength = valueLength(f.meta());
        }
        long first = range.firstIn(valueLength);
        long length = range.lengthIn(valueLength);
        java.io.InputStream in;
        if (f.meta().isChunked()) {
            in = chunkedReader(mk, f.meta(), f.stored(), f.dataKey(), first, length);
        } else {
            in = new java.io.ByteArrayInputStream(sealer.open(f.dataKey(), f.stored()), (int) first, (int) length);
        }
        return new Opened(info(f.meta()), first, length, in);
    }

    /** A stream opened by {@link #open}: {@code length} bytes of the value from offset {@code first}. */
    public record Opened(VersionInfo version, long first, long length, java.io.InputStream in) {
    }

    private ChunkedReader chunkedReader(MetadataKey mk, Metadata meta, byte[] manifestBytes, byte[] dataKey,
                                        long first, long length) {
        ChunkManifest manifest = ChunkManifest.decode(manifestBytes);
        if (manifest.valueLength() != meta.chunked().valueLength()) {
            throw new HybrisException("the chunk manifest of " + mk + " describes " + manifest.valueLength()
                    + " bytes, its metadata " + meta.chunked().valueLength());
        }
        ObjectKey version = new ObjectKey(mk.container(), mk.key(), meta.timestamp());
        ChunkedReader reader = new ChunkedReader(manifest, version, prefix, layouts,
                (name, chunk, d, failures) -> worstCaseChunk(mk, meta.timestamp(), name, chunk, d, failures),
                dataKey, io, deadline, readAhead, first, length, openStreams::remove);
        openStreams.add(reader);
        return reader;
    }

    /**
     * The worst-case GET (paper §3.5): subscribe to the key, run rounds of the version's layout (every listed cloud
     * in parallel, failed ones re-requested with backoff), restart when the metadata changes, give up at the
     * deadline. Null if the key was deleted meanwhile.
     */
    private Fetched worstCaseGet(MetadataKey mk, Deadline d, List<Throwable> failures) {
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
                    return null;
                }
                Metadata meta = cur.meta();
                byte[] dataKey = sealer.dataKey(meta, mk.toString());
                String objectKey = new ObjectKey(mk.container(), mk.key(), meta.timestamp()).render(prefix);
                byte[] stored = layouts.forRead(meta).readRound(race, changed, objectKey, meta, d, failures);
                if (stored != null) {
                    return new Fetched(meta, stored, dataKey);
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

    /**
     * The worst case for one chunk of a chunked value no listed cloud provided: rounds over its clouds while the
     * version is current. Chunks are immutable, so once the version is superseded (and its chunks collected) the
     * read fails rather than mixing versions.
     */
    private byte[] worstCaseChunk(MetadataKey mk, Timestamp version, String name, Metadata chunk, Deadline d,
                                  List<Throwable> failures) {
        while (true) {
            Race<byte[]> race = calls.newReadRace();
            Race.Signal changed = new Race.Signal("metadata changed");
            MetadataCalls.Watched watched = metadata.readAndWatch(mk, () -> race.signal(changed), d);
            try {
                Metadata now = watched.current().meta();
                if (now == null || !now.timestamp().equals(version)) {
                    throw new ConcurrentOverwriteException(mk + " was " + (now == null || now.isTombstone()
                            ? "deleted" : "overwritten") + " while version " + version + " was being read, and "
                            + name + " is no longer on any cloud; read the key again");
                }
                byte[] stored = layouts.forRead(chunk).readRound(race, changed, name, chunk, d, failures);
                if (stored != null) {
                    return stored;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CallInterruptedException("read of " + mk + " interrupted", false, e);
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
        return Optional.of(info(cur.meta()));
    }

    private static VersionInfo info(Metadata m) {
        return new VersionInfo(m.timestamp().sn(), m.timestamp().clientId(), m.clouds(), valueLength(m),
                Hashing.hex(m.sha256()), m.timestamp().toString());
    }

    /** The length of a live version's value (not of its stored bytes, which may be ciphertext or a manifest). */
    private static long valueLength(Metadata m) {
        if (m.isChunked()) {
            return m.chunked().valueLength();
        }
        if (m.encryption() != null) {
            return Math.max(0, ValueCipher.plaintextLength(m.size(), ValueCipher.DEFAULT_CHUNK_SIZE));
        }
        return m.size();
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
            throw new ValueTooLargeException("value for key '" + key + "' is " + value.length
                    + " bytes, above hybris.value.max-size=" + maxValueSize + "; raise the limit or split the value",
                    maxValueSize);
        }
    }
}
