/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.Consistency;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.HybrisListener.Operation;
import io.hybris.HybrisListener.OperationOutcome;
import io.hybris.InvalidRequestException;
import io.hybris.DeleteOptions;
import io.hybris.DescribedKeyPage;
import io.hybris.KeyPage;
import io.hybris.PutOptions;
import io.hybris.PutOvertakenException;
import io.hybris.RewrapReport;
import io.hybris.SweepReport;
import io.hybris.VersionInfo;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.ValueCache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

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
    private final ChangeFeed changeFeed;
    private final KeyListing listing;
    private final CloudCalls calls;
    private final Layouts layouts;
    private final LatencyRanking ranking;
    private final CloudUsageCounters usage = new CloudUsageCounters();
    private final CostReports costReports;
    private final CloudPreference preference;
    private final Quarantine quarantine;
    private final Scrubber scrubber;
    private final List<String> cloudOrder;
    private final LatencyProber prober;
    private final GarbageCollector gc;
    private final HybrisListener listener;
    private final Sealer sealer;
    private final CacheLayer cache;
    private final WritePath writes;
    private final Reads reads;
    private final DataKeyRewrap rewrap;
    private final ChunkedWriter chunkedWriter;
    private final MultipartWriter multipart;
    private final long chunkThreshold;

    /**
     * An engine that uses {@code valueCache} (null for none) as {@link io.hybris.CacheSettings} say, and whose
     * events also go to {@code extraListener} (null for none), beside the configuration's.
     */
    public Engine(HybrisConfig config, MetadataStore metadata, List<CloudStore> cloudList, ExecutorService io,
                  ExecutorService metadataCalls, ExecutorService gcExecutor, ValueCache valueCache,
                  HybrisListener extraListener) {
        this.clientId = config.clientId();
        this.prefix = config.objectPrefix();
        this.deadline = config.deadline();
        this.maxValueSize = config.maxValueSize();
        this.store = metadata;
        this.listener = new SafeListener(extraListener == null ? config.listener()
                : HybrisListener.of(config.listener(), extraListener));
        this.metadata = new MetadataCalls(metadata, metadataCalls, config.clock(), listener);
        this.changeFeed = new ChangeFeed(metadata, this.metadata, deadline, clientId);
        this.listing = new KeyListing(metadata, this.metadata, deadline);
        Map<String, CloudStore> byId = new LinkedHashMap<>();
        cloudList.forEach(c -> byId.put(c.id(), usage.wrap(c))); // every cloud call counted (docs/cost.md)
        Map<String, CloudStore> clouds = Map.copyOf(byId);
        List<String> cloudOrder = List.copyOf(byId.keySet());
        this.cloudOrder = cloudOrder;
        this.ranking = new LatencyRanking(cloudOrder, config.timerMin(), config.timerInitial(),
                config.timerMultiplier());
        this.sealer = new Sealer(config.keyProvider().orElse(null));
        this.gc = new GarbageCollector(byId, metadata, gcExecutor, prefix, config.gcGrace(),
                listener, config.gcEnabled(), config.reads().supersededRetention());
        this.prober = new LatencyProber(clouds, cloudOrder, ranking, io, prefix, clientId);
        this.quarantine = new Quarantine(config.reads().quarantineAfter(), config.reads().quarantineDuration(),
                listener, System::nanoTime);
        this.preference = new CloudPreference(ranking, config.costs(), quarantine);
        this.calls = new CloudCalls(clouds, cloudOrder, ranking, preference, listener, io, gc, quarantine,
                config.reads());
        this.layouts = new Layouts(config, calls);
        this.chunkThreshold = config.chunkThreshold();
        this.chunkedWriter = new ChunkedWriter(layouts, sealer, gc, io, prefix, config.chunkSize(),
                config.chunkParallelUploads(), deadline, config.gcGrace()); // other clients may sweep: always
        // recent chunk manifests, read or written (4 MiB: about 800 values of 1 GiB in 8 MiB chunks)
        ManifestCache manifests = new ManifestCache(4 << 20);
        VersionPath path = new VersionPath(layouts, chunkedWriter, new Commits(this.metadata, gc, listener), gc, prefix, io,
                metadataCalls, manifests, sealer);
        this.cache = new CacheLayer(config.cache(), valueCache, prefix, io, config.clock(), listener,
                sealer::authenticatesCacheEntryOf);
        ReadPath readPath = path;
        ReadPath cacheFailedPath = path;
        if (cache.enabled()) {
            CachingPath cached = new CachingPath(cache, path, path);
            this.writes = cached;
            readPath = cached;
            cacheFailedPath = cached.withoutLookup();
        } else {
            this.writes = path;
        }
        this.multipart = new MultipartWriter(this.metadata, writes, chunkedWriter, sealer, gc, listener, prefix, clientId,
                writeIds, deadline, config.gcGrace(), maxValueSize, config.clock(), cache);
        // no speculative reads through the value cache: a guess read into it could replace a newer entry
        this.reads = new Reads(this.metadata, readPath, cacheFailedPath,
                config.reads().speculate() && !cache.enabled(),
                cache, sealer, calls, layouts, listener, prefix, io, deadline,
                config.chunkReadAhead(), manifests);
        this.rewrap = new DataKeyRewrap(metadata, this.metadata, sealer, deadline);
        this.costReports = new CostReports(clouds, usage, config.costs().prices(), prefix, io, deadline,
                config.clock().instant());
        this.scrubber = new Scrubber(metadata, this.metadata, clouds, cloudOrder, preference, layouts, prefix, deadline,
                this::rewrite);
    }

    /** A scrub (docs/scrub.md). */
    public io.hybris.ScrubReport scrub(io.hybris.ScrubOptions options) {
        return scrubber.run(options, null, null);
    }

    /** Moves every copy off {@code from} onto {@code to}; this client writes nothing to {@code from} meanwhile. */
    public io.hybris.ScrubReport migrate(String from, String to, io.hybris.ScrubOptions options) {
        scrubber.check(options, true, from, to); // before retiring: a refused call must not mark a cloud
        preference.retire(from);
        try {
            return scrubber.run(options.repair(true), from, to);
        } finally {
            preference.unretire(from);
        }
    }

    /**
     * Rewrites a chunked value as a new version with the same bytes, if {@code meta} is still current, written by
     * {@link io.hybris.spi.VersionName#REWRITE_MARK} and this client's id: ordered before any client's write with its
     * sequence number, so a user write that read {@code meta} orders itself after it instead of being lost to it.
     */
    private boolean rewrite(String container, String key, Metadata meta) {
        long t0 = System.nanoTime();
        try { // one REWRITE event, neither a GET nor a PUT of the caller's: a superseded rewrite is ABORTED
            boolean rewritten = rewriteIfCurrent(container, key, meta);
            listener.operation(Operation.REWRITE, container, rewritten ? OperationOutcome.OK
                    : OperationOutcome.ABORTED, since(t0));
            return rewritten;
        } catch (RuntimeException e) {
            throw failed(Operation.REWRITE, container, t0, e);
        }
    }

    private boolean rewriteIfCurrent(String container, String key, Metadata meta) {
        String version = meta.toVersionInfo().version();
        Opened opened = reads.open(container, key, io.hybris.ByteRange.all());
        if (opened == null) {
            return false;
        }
        try (java.io.InputStream in = opened.in()) {
            if (!opened.version().version().equals(version)) {
                return false;
            }
            putStream(container, key, in, opened.length(), PutOptions.ifMatch(version)
                    .withMetadata(meta.userMetadata()), io.hybris.spi.VersionName.REWRITE_MARK + clientId, null);
            return true;
        } catch (io.hybris.PreconditionFailedException | io.hybris.ConcurrentOverwriteException e) {
            return false; // replaced before its commit, or while it was read (its chunks collected): superseded
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Marks the engine closed: calls waiting for a metadata store answer stop waiting and fail with
     * {@link io.hybris.ClientClosedException} (a write's outcome is then unknown). The owner shuts the executors
     * down after.
     */
    public void close() {
        changeFeed.close();
        metadata.close();
        reads.close();
    }

    /**
     * Aborts the cloud requests running on the I/O threads, whose owner is about to interrupt them: a driver
     * blocked in socket I/O on such a thread ends through its abort action, not the interrupt.
     */
    public void abortCloudRequests() {
        calls.abortRunning();
    }

    /** Uploads of values in parts (docs/streaming.md). */
    public MultipartWriter multipart() {
        return multipart;
    }

    /** The change feed of every container. */
    public ChangeFeed changeFeed() {
        return changeFeed;
    }

    /** The value cache's counters. */
    public io.hybris.CacheStats cacheStats() {
        return cache.stats();
    }

    /** The requests and bytes counted per cloud since the client opened. */
    public CloudUsageCounters usage() {
        return usage;
    }

    /** The cost of what this client did, and of what the clouds store for {@code storagePeriod}. */
    public io.hybris.cost.CostReport costReport(Duration storagePeriod) {
        return costReports.report(storagePeriod);
    }

    /** The latency ranking (for diagnostics). */
    public LatencyRanking ranking() {
        return ranking;
    }

    /** Each cloud's rank, small-value latency estimates and recorded errors, fastest first. */
    public List<io.hybris.CloudStatus> cloudStatus() {
        return ranking.status(cloudOrder, quarantine);
    }

    /**
     * Measures the clouds whose latency estimates are older than {@code maxAge} (or failure penalties), so a
     * cloud that recovered climbs back in the ranking; returns how many cloud/size-class slots were probed.
     */
    public int probeStaleLatencies(Duration maxAge) {
        return prober.probeStale(maxAge.toNanos()).size();
    }

    /**
     * Measures the clouds due for a recheck (probed at open, or moved behind another cloud by live traffic, and
     * unmeasured since: see {@link LatencyRanking#recheckSlots}); returns how many slots were probed.
     */
    public int probeLatencyRechecks(Duration maxAge) {
        return prober.probeRechecks(maxAge.toNanos()).size();
    }

    /** Measures every cloud in every size class in use; returns how many slots were probed. */
    public int probeAllLatencies() {
        return prober.probeAll().size();
    }

    // ------------------------------------------------------------------ PUT / DELETE / TPUT

    /**
     * PUT (paper §3.2): read the current version (with {@code ifMatch} the version this client's latest read of
     * the key found, if it is that one: {@link RecentReads}), check the precondition (if any), order after it, store
     * by layout, commit. Returns the committed version.
     */
    public VersionInfo put(String container, String key, byte[] value, PutOptions options) {
        long t0 = System.nanoTime();
        try {
            return done(Operation.PUT, container, t0, putBytes(container, key, value, options));
        } catch (RuntimeException e) {
            throw failed(Operation.PUT, container, t0, e);
        }
    }

    private VersionInfo putBytes(String container, String key, byte[] value, PutOptions options) {
        WriteRequests.checkValue(key, value, maxValueSize);
        MetadataKey mk = new MetadataKey(container, key);
        Preconditions required = Preconditions.of(options);
        if (value.length > chunkThreshold) {
            Supplier<ValueSource> source = () -> ValueSource.of(value, maxValueSize, what(container, key));
            return putChunked(mk, source.get(), source, required, LateMetadata.of(options), clientId);
        }
        return putWhole(mk, value, required, LateMetadata.of(options), clientId);
    }

    private VersionInfo putWhole(MetadataKey mk, byte[] value, Preconditions required, Map<String, String> meta,
                                 String writer) {
        Deadline d = Deadline.after(deadline);
        while (true) { // a conditional write or deletion that overtook it cannot be ordered after it: put again
            Current cur = metadata.readUnlessJustRead(mk, ifMatchOf(required), d);
            Preconditions.check(mk, required, cur);
            try {
                return writes.write(new WritePath.NewVersion(mk, cur, nextTimestamp(cur, writer), sealer.seal(value),
                        null, 0, required, meta), d).toVersionInfo();
            } catch (PutOvertakenException overtaken) {
                continue; // the deadline bounds every attempt: the next step fails once it has passed
            }
        }
    }

    /**
     * PUT of a value read from a stream of {@code length} bytes ({@link ValueSource#UNKNOWN_LENGTH} if unknown):
     * a value up to {@code hybris.chunk.threshold} is stored whole, a larger one in chunks (docs/streaming.md),
     * each chunk by the container's layout, then its manifest, then the commit by the same rule as any PUT.
     * {@code reopen} (null: the stream cannot be read again) opens the value anew, from its start, for a PUT in
     * chunks overtaken by a conditional write or deletion; else that PUT fails with {@link PutOvertakenException}.
     */
    public VersionInfo put(String container, String key, java.io.InputStream in, long length, PutOptions options,
                           Supplier<java.io.InputStream> reopen) {
        long t0 = System.nanoTime();
        try {
            return done(Operation.PUT, container, t0, putStream(container, key, in, length, options, clientId,
                    reopen));
        } catch (RuntimeException e) {
            throw failed(Operation.PUT, container, t0, e);
        }
    }

    /** A PUT from a stream, its version written by {@code writer}: this client, or a rewrite (see {@link #rewrite}). */
    private VersionInfo putStream(String container, String key, java.io.InputStream in, long length,
                                  PutOptions options, String writer, Supplier<java.io.InputStream> reopen) {
        if (in == null) {
            throw new InvalidRequestException("the stream for key '" + key + "' must not be null; use delete to"
                    + " remove a key");
        }
        if (length < ValueSource.UNKNOWN_LENGTH) {
            throw new InvalidRequestException("length " + length + " of the value for key '" + key + "' is invalid:"
                    + " pass its length in bytes, or -1 if it is not known");
        }
        MetadataKey mk = new MetadataKey(container, key);
        Preconditions required = Preconditions.of(options);
        ValueSource source = new ValueSource(in, length, maxValueSize, what(container, key));
        if (length == ValueSource.UNKNOWN_LENGTH || length > chunkThreshold) {
            byte[] head = source.read((int) Math.min(chunkThreshold + 1, Integer.MAX_VALUE - 8));
            if (head.length > chunkThreshold) {
                source.pushBack(head);
                Supplier<ValueSource> again = reopen == null ? null
                        : () -> new ValueSource(reopen.get(), length, maxValueSize, what(container, key));
                return putChunked(mk, source, again, required, LateMetadata.of(options), writer);
            }
            return putWhole(mk, head, required, LateMetadata.of(options), writer);
        }
        return putWhole(mk, source.read((int) length), required, LateMetadata.of(options), writer);
    }

    /** A PUT in chunks of {@code source}; {@code again} (null: a stream read once) reads the value anew. */
    private VersionInfo putChunked(MetadataKey mk, ValueSource source, Supplier<ValueSource> again,
                                   Preconditions required, Map<String, String> meta, String writer) {
        Deadline retries = null; // from its first overtaking, it puts again while within the deadline
        for (ValueSource value = source; ; value = again.get()) { // each attempt a whole PUT, with its deadline
            Deadline d = Deadline.after(deadline);
            Current cur = metadata.read(mk, d);
            Preconditions.check(mk, required, cur); // before a single chunk is uploaded
            try {
                return writes.write(new WritePath.NewVersion(mk, cur, nextTimestamp(cur, writer), null,
                        new WritePath.ChunkedValue(value), 0, required, meta), d).toVersionInfo();
            } catch (PutOvertakenException overtaken) {
                retries = retries == null ? Deadline.after(deadline) : retries;
                if (again == null || retries.expired()) {
                    throw overtaken; // this stream cannot be read again, or it was overtaken for too long
                }
            }
        }
    }

    private static String what(String container, String key) {
        return "key '" + key + "' in " + container;
    }

    /**
     * DELETE (paper §3.7): a tombstone with a newer timestamp; the data is garbage-collected. Returns the deletion's
     * version, or empty when the key had no value or another deletion committed since the read (then nothing is
     * written).
     */
    public Optional<VersionInfo> delete(String container, String key, DeleteOptions options) {
        long t0 = System.nanoTime();
        try {
            return found(Operation.DELETE, container, t0, deleteKey(container, key, options));
        } catch (RuntimeException e) {
            throw failed(Operation.DELETE, container, t0, e);
        }
    }

    private Optional<VersionInfo> deleteKey(String container, String key, DeleteOptions options) {
        Deadline d = Deadline.after(deadline);
        MetadataKey mk = new MetadataKey(container, key);
        Preconditions required = Preconditions.of(options);
        Current cur = metadata.readUnlessJustRead(mk, ifMatchOf(required), d);
        Preconditions.check(mk, required, cur);
        if (!cur.live()) {
            cache.forgetOwnWrite(container, key); // already deleted: read-your-writes must not serve this client's
            return Optional.empty();             // older write of the key
        }
        Metadata tombstone = writes.write(new WritePath.NewVersion(mk, cur, nextTimestamp(cur, clientId), null, null,
                0, required, Map.of()), d);
        return Optional.ofNullable(tombstone).map(Metadata::toVersionInfo); // null: deleted meanwhile, a no-op
    }

    /**
     * Transactional PUT (paper §3.6): all values become visible atomically, or none; a key with a precondition in
     * {@code options} commits only if it holds (checked first, and again atomically at the commit). Returns the
     * committed versions by key.
     */
    public Map<String, VersionInfo> tput(String container, Map<String, byte[]> values, Map<String, PutOptions> options) {
        long t0 = System.nanoTime();
        try {
            return done(Operation.TPUT, container, t0, tputValues(container, values, options));
        } catch (RuntimeException e) {
            throw failed(Operation.TPUT, container, t0, e);
        }
    }

    private Map<String, VersionInfo> tputValues(String container, Map<String, byte[]> values,
                                                Map<String, PutOptions> options) {
        Map<String, PutOptions> conditions = WriteRequests.checkTput(values, options, MAX_TPUT_KEYS,
                metadata.maxAtomicUpdates(), metadata::describe, maxValueSize);
        Deadline d = Deadline.after(deadline);
        Map<String, Current> read = new LinkedHashMap<>();
        for (String k : values.keySet()) {
            MetadataKey mk = new MetadataKey(container, k);
            Preconditions required = Preconditions.of(conditions.get(k));
            // a value stored in chunks is checked against a fresh read, before any of its chunks is uploaded
            Current cur = values.get(k).length > chunkThreshold ? metadata.read(mk, d)
                    : metadata.readUnlessJustRead(mk, ifMatchOf(required), d);
            Preconditions.check(mk, required, cur);
            read.put(k, cur);
        }
        List<WritePath.NewVersion> versions = new ArrayList<>();
        values.forEach((k, v) -> {
            boolean large = v.length > chunkThreshold;
            versions.add(new WritePath.NewVersion(new MetadataKey(container, k), read.get(k),
                    nextTimestamp(read.get(k), clientId), large ? null : sealer.seal(v),
                    large ? new WritePath.ChunkedValue(ValueSource.of(v, maxValueSize, what(container, k))) : null,
                    0, Preconditions.of(conditions.get(k)), LateMetadata.of(conditions.get(k))));
        });
        Map<String, VersionInfo> committed = new LinkedHashMap<>();
        writes.writeAll(container, versions, d).forEach((k, m) -> committed.put(k, m.toVersionInfo()));
        return committed;
    }

    /** The version {@code required} (null: none) must find current, or null. */
    private static String ifMatchOf(Preconditions required) {
        return required == null ? null : required.ifMatch();
    }

    /** The timestamp of a write by {@code writer} (this client, or a {@link #rewrite}) over {@code cur}. */
    private Timestamp nextTimestamp(Current cur, String writer) {
        return cur.timestamp(clientId).next(writer, writeIds.next());
    }

    // ------------------------------------------------------------------ GET

    /** GET (paper §3.3 and §3.5). */
    public Optional<byte[]> get(String container, String key) {
        long t0 = System.nanoTime();
        try {
            return found(Operation.GET, container, t0, reads.get(container, key));
        } catch (RuntimeException e) {
            throw failed(Operation.GET, container, t0, e);
        }
    }

    /**
     * GET in the given consistency mode (paper §3.10): the weaker modes answer from the value cache without the
     * metadata store when they may, and fall back to the linearizable GET otherwise.
     */
    public Optional<byte[]> get(String container, String key, Consistency consistency) {
        long t0 = System.nanoTime();
        try {
            return found(Operation.GET, container, t0, reads.get(container, key, consistency));
        } catch (RuntimeException e) {
            throw failed(Operation.GET, container, t0, e);
        }
    }

    /** A streaming GET of {@code range} of the key's current value; null if the key is absent or deleted. */
    public Opened open(String container, String key, io.hybris.ByteRange range) {
        long t0 = System.nanoTime();
        try {
            Opened opened = reads.open(container, key, range);
            listener.operation(Operation.GET, container, opened == null ? OperationOutcome.NOT_FOUND
                    : OperationOutcome.OK, since(t0));
            return opened;
        } catch (RuntimeException e) {
            throw failed(Operation.GET, container, t0, e);
        }
    }

    /** A stream opened by {@link #open}: {@code length} bytes of the value from offset {@code first}. */
    public record Opened(VersionInfo version, long first, long length, java.io.InputStream in) {
    }

    // ------------------------------------------------------------------ LIST / DESCRIBE / maintenance

    /** LIST (paper §3.7): one page of live keys, from metadata only. */
    public KeyPage list(String container, String prefixFilter, String cursor, int limit) {
        return listed(container, () -> listing.keys(container, prefixFilter, cursor, limit));
    }

    /** Every live key of {@code container}, page after page (an event per page). */
    public List<String> listAll(String container) {
        return KeyListing.all(cursor -> list(container, "", cursor, 1000));
    }

    /** LIST with each key's current version, from the same listing. */
    public DescribedKeyPage listDescribed(String container, String prefixFilter, String cursor, int limit) {
        return listed(container, () -> listing.described(container, prefixFilter, cursor, limit));
    }

    private <T> T listed(String container, Supplier<T> page) {
        long t0 = System.nanoTime();
        try {
            return done(Operation.LIST, container, t0, page.get());
        } catch (RuntimeException e) {
            throw failed(Operation.LIST, container, t0, e);
        }
    }

    /** The metadata of a key's current value; empty if absent or deleted. */
    public Optional<VersionInfo> describe(String container, String key) {
        long t0 = System.nanoTime();
        try {
            return found(Operation.DESCRIBE, container, t0, describeKey(container, key));
        } catch (RuntimeException e) {
            throw failed(Operation.DESCRIBE, container, t0, e);
        }
    }

    private Optional<VersionInfo> describeKey(String container, String key) {
        Current cur = metadata.read(new MetadataKey(container, key), Deadline.after(deadline));
        if (!cur.live()) {
            return Optional.empty();
        }
        return Optional.of(cur.meta().toVersionInfo());
    }

    /** KEK rotation (see {@link DataKeyRewrap}). */
    public RewrapReport rewrapDataKeys(io.hybris.WorkProgress progress) {
        return rewrap.run(progress);
    }

    /** The orphan sweep (see {@link GarbageCollector#sweep}). */
    public SweepReport sweep() {
        return sweep(io.hybris.WorkProgress.NONE);
    }

    /** The orphan sweep, reporting each object examined to {@code progress}. */
    public SweepReport sweep(io.hybris.WorkProgress progress) {
        long t0 = System.nanoTime();
        try {
            return done(Operation.SWEEP, null, t0, gc.sweep(progress));
        } catch (RuntimeException e) {
            throw failed(Operation.SWEEP, null, t0, e);
        }
    }

    // ------------------------------------------------------------------ operation events

    private <T> T done(Operation op, String container, long t0, T result) {
        listener.operation(op, container, OperationOutcome.OK, since(t0));
        return result;
    }

    private <T> Optional<T> found(Operation op, String container, long t0, Optional<T> result) {
        listener.operation(op, container, result.isPresent() ? OperationOutcome.OK : OperationOutcome.NOT_FOUND,
                since(t0));
        return result;
    }

    private RuntimeException failed(Operation op, String container, long t0, RuntimeException e) {
        listener.operation(op, container, OperationOutcome.of(e), since(t0));
        return e;
    }

    private static Duration since(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
