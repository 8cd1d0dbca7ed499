package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.ClientClosedException;
import io.hybris.Consistency;
import io.hybris.CryptoException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisConfig;
import io.hybris.HybrisException;
import io.hybris.HybrisListener;
import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.Outcome;
import io.hybris.InvalidRequestException;
import io.hybris.KeyPage;
import io.hybris.MetadataStoreException;
import io.hybris.NotEnoughCloudsException;
import io.hybris.RewrapReport;
import io.hybris.SweepReport;
import io.hybris.TransactionAbortedException;
import io.hybris.VersionInfo;
import io.hybris.internal.LatencyRanking.Op;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.ValueCache;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.WatchedRead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Hybris protocol (paper §3, Algorithm 1), written once over the {@link MetadataStore} and
 * {@link CloudStore} SPIs: PUT, GET (common and worst case), DELETE, LIST, TPUT, and the hooks into garbage
 * collection. Thread-safe: every call keeps its state on its own stack.
 */
public final class Engine {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
    /** Largest number of keys in one transactional put. */
    public static final int MAX_TPUT_KEYS = 1000;
    /** Largest page a list call returns. */
    public static final int MAX_PAGE = 10_000;
    private static final long WORST_CASE_ROUND_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long RETRY_BACKOFF_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long RETRY_BACKOFF_MAX_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** Values at least this large are hashed on an I/O thread while their uploads run. */
    private static final int HASH_IN_PARALLEL_FROM = 256 << 10;

    private final int f;
    private final String clientId;
    private final WriteIds writeIds = new WriteIds();
    private final String prefix;
    private final Duration deadline;
    private final long maxValueSize;
    private final MetadataStore metadata;
    private final Map<String, CloudStore> clouds;
    private final List<String> cloudOrder;
    private final LatencyRanking ranking;
    private final LatencyProber prober;
    private final GarbageCollector gc;
    private final CloudCallPlacement placement;
    private final HybrisListener listener;
    private final ExecutorService io;
    private final ExecutorService metadataCalls;
    /** The store's own bound on a call's duration in nanoseconds, or -1 if it has none. */
    private final long metadataCallBoundNanos;
    private final Sealer sealer;
    private final CacheLayer cache;
    private final ErasureStorage erasure;
    /** Completed by {@link #close()}: calls waiting on the metadata store stop waiting. */
    private final CompletableFuture<Void> closing = new CompletableFuture<>();

    /** What a metadata read found: the decoded metadata (null if the key never existed) and its version. */
    private record Current(Metadata meta, MetadataVersion version) {
        static final Current NONE = new Current(null, MetadataVersion.ABSENT);

        Timestamp timestamp(String clientId) {
            return meta == null ? new Timestamp(0, clientId) : meta.timestamp();
        }

        boolean live() {
            return meta != null && !meta.isTombstone();
        }
    }

    public Engine(HybrisConfig config, MetadataStore metadata, List<CloudStore> cloudList, ExecutorService io,
                  ExecutorService metadataCalls, ExecutorService gcExecutor) {
        this(config, metadata, cloudList, io, metadataCalls, gcExecutor, null);
    }

    /** An engine that uses {@code valueCache} (null for none) as {@link io.hybris.CacheSettings} say. */
    public Engine(HybrisConfig config, MetadataStore metadata, List<CloudStore> cloudList, ExecutorService io,
                  ExecutorService metadataCalls, ExecutorService gcExecutor, ValueCache valueCache) {
        this.f = config.f();
        this.clientId = config.clientId();
        this.prefix = config.objectPrefix();
        this.deadline = config.deadline();
        this.maxValueSize = config.maxValueSize();
        this.metadata = metadata;
        Map<String, CloudStore> byId = new LinkedHashMap<>();
        cloudList.forEach(c -> byId.put(c.id(), c));
        this.clouds = Map.copyOf(byId);
        this.cloudOrder = List.copyOf(byId.keySet());
        this.ranking = new LatencyRanking(cloudOrder, config.timerMin(), config.timerInitial(),
                config.timerMultiplier());
        this.listener = new SafeListener(config.listener());
        this.io = io;
        this.metadataCalls = metadataCalls;
        this.metadataCallBoundNanos = metadata.callTimeBound().map(Duration::toNanos).orElse(-1L);
        this.sealer = new Sealer(config.keyProvider().orElse(null));
        this.gc = new GarbageCollector(byId, metadata, gcExecutor, prefix, config.gcGrace(), config.clock(),
                listener, config.gcEnabled());
        this.prober = new LatencyProber(clouds, cloudOrder, ranking, io, prefix, clientId);
        this.cache = new CacheLayer(config.cache(), valueCache, prefix, io, config.clock());
        this.placement = new CloudCallPlacement(clouds);
        this.erasure = new ErasureStorage(config, clouds, cloudOrder, ranking, listener, io, gc, placement);
    }

    /**
     * Marks the engine closed: calls waiting for a metadata store answer stop waiting and fail with
     * {@link ClientClosedException} (a write's outcome is then unknown). The owner shuts the executors down after.
     */
    public void close() {
        closing.complete(null);
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

    // ------------------------------------------------------------------ PUT / DELETE

    /** PUT (paper §3.2). */
    public void put(String container, String key, byte[] value) {
        checkValue(key, value);
        Deadline d = Deadline.after(deadline);
        Sealer.Sealed sealed = sealer.seal(value);
        MetadataKey mk = new MetadataKey(container, key);
        Current cur = read(mk, d);
        Timestamp ts = cur.timestamp(clientId).next(clientId, writeIds.next());
        String objectKey = new ObjectKey(container, key, ts).render(prefix);
        CacheLayer.Pending cached = cache.writeThrough(container, key, ts, sealed.stored());
        try {
            Metadata meta = cache.countVersion(store(container, objectKey, ts, sealed, d), cur.meta);
            long knownAt = cache.now();
            commit(mk, meta, cur, d, objectKey);
            cache.committed(container, key, meta, sealed.stored(), knownAt, cached);
        } catch (RuntimeException e) {
            cache.writeFailed(container, key, cached);
            throw e;
        }
    }

    /** DELETE (paper §3.7): a tombstone with a newer timestamp; the data is garbage-collected. */
    public void delete(String container, String key) {
        Deadline d = Deadline.after(deadline);
        MetadataKey mk = new MetadataKey(container, key);
        Current cur = read(mk, d);
        if (!cur.live()) {
            return;
        }
        Timestamp ts = cur.timestamp(clientId).next(clientId, writeIds.next());
        Metadata tombstone = Metadata.tombstone(ts);
        long knownAt = cache.now();
        try {
            commit(mk, tombstone, cur, d, null);
        } catch (RuntimeException e) {
            cache.writeFailed(container, key, null);
            throw e;
        }
        cache.committed(container, key, tombstone, null, knownAt, null);
    }

    /**
     * The conditional update that linearizes a PUT or DELETE, with the retry rule of paper §4.1: on a version
     * conflict re-read; our own timestamp (unique per call, see {@link Timestamp}) with our hash means our update
     * landed (a store that retried a request after a lost connection); a newer stored timestamp means this write
     * was overwritten (and is complete); an older one means retry against the new version. Then collect the
     * version actually replaced.
     *
     * <p>Only a lost race is a definite failure, and only then are this write's copies deleted at once. Any other
     * exception (interrupt, deadline, lost connection, close) leaves the outcome unknown: the update may have been
     * sent and may commit, so the copies stay for the orphan sweep, which checks metadata before deleting.
     */
    private void commit(MetadataKey mk, Metadata meta, Current read, Deadline d, String objectKey) {
        Current replaced = read;
        byte[] encoded = MetadataCodec.encode(meta);
        while (true) {
            MetadataVersion expected = replaced.version;
            try {
                callMetadata(d, "conditional update of " + mk, true, () -> {
                    metadata.conditionalUpdate(new MetadataUpdate(mk, encoded, expected));
                    return null;
                });
                gc.collectSuperseded(mk.container(), mk.key(), replaced.meta);
                return;
            } catch (VersionConflictException conflict) {
                Current now = read(mk, d);
                if (isOurs(now.meta, meta)) {
                    // our own update landed (a retried request after a lost connection)
                    gc.collectSuperseded(mk.container(), mk.key(), replaced.meta);
                    return;
                }
                if (now.meta != null && now.meta.timestamp().isAfter(meta.timestamp())) {
                    // overwritten by a newer write: linearized just before it; our copy is garbage
                    if (objectKey != null) {
                        gc.deleteVersion(objectKey, meta.clouds());
                    }
                    return;
                }
                replaced = now;
            }
        }
    }

    /** Whether {@code stored} is the update {@code written} by this very call: same write identity, same bytes. */
    private static boolean isOurs(Metadata stored, Metadata written) {
        return stored != null && stored.timestamp().equals(written.timestamp())
                && java.util.Arrays.equals(stored.sha256(), written.sha256());
    }

    /**
     * Stores one version by the container's policy, replicated ({@link #upload}) or erasure-coded
     * ({@link ErasureStorage}), and returns its metadata (not yet committed).
     */
    private Metadata store(String container, String objectKey, Timestamp ts, Sealer.Sealed sealed, Deadline d) {
        byte[] data = sealed.stored();
        // the hash is needed only for the metadata: for large values compute it while the uploads run
        CompletableFuture<byte[]> hash = data.length >= HASH_IN_PARALLEL_FROM
                ? CompletableFuture.supplyAsync(() -> Hashing.sha256(data), io)
                : CompletableFuture.completedFuture(Hashing.sha256(data));
        try {
            if (erasure.applies(container, data.length)) {
                ErasureStorage.Placement placement = erasure.upload(objectKey, data, d);
                return new Metadata(ts, placement.clouds(), hash.join(), data.length, sealed.encryption(), 0,
                        placement.erasure());
            }
            List<String> acked = upload(objectKey, data, d);
            return new Metadata(ts, acked, hash.join(), data.length, sealed.encryption());
        } catch (RuntimeException e) {
            hash.cancel(false);
            throw e;
        }
    }

    /**
     * Uploads one version to the {@code f+1} clouds ranked fastest for writes of its size, adding secondary clouds
     * when a timer expires or a cloud fails (paper §3.2). Returns the {@code f+1} clouds that acknowledged, in
     * acknowledgement order. On failure deletes what was stored and throws.
     */
    private List<String> upload(String objectKey, byte[] data, Deadline d) {
        Uploads uploads = new Uploads();
        try {
            return uploadOrThrow(objectKey, data, d, uploads);
        } catch (RuntimeException e) {
            gc.deleteVersion(objectKey, uploads.decide(Set.of()));
            throw e;
        }
    }

    private List<String> uploadOrThrow(String objectKey, byte[] data, Deadline d, Uploads uploads) {
        int needed = f + 1;
        long size = data.length;
        List<String> ranked = ranking.rank(cloudOrder, Op.WRITE, size);
        Race<Void> race = new Race<>(io);
        List<String> acked = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        int next = 0;
        int failed = 0;
        long timerAt = System.nanoTime();
        for (; next < Math.min(needed, ranked.size()); next++) {
            launchUpload(race, ranked.get(next), objectKey, data, uploads, d);
            timerAt = Math.max(timerAt, System.nanoTime() + ranking.timerNanos(ranked.get(next), Op.WRITE, size));
        }
        try {
            while (acked.size() < needed) {
                if (ranked.size() - failed < needed) {
                    throw notEnoughClouds(objectKey, needed, acked, failures);
                }
                Object event = race.poll(d.cap(timerAt - System.nanoTime()));
                if (event == null) {
                    if (d.expired()) {
                        DeadlineExceededException e = new DeadlineExceededException("put of '" + objectKey
                                + "' did not reach " + needed + " clouds within " + deadline + "; acknowledged by "
                                + acked + ", still waiting for " + race.runningClouds());
                        failures.forEach(e::addSuppressed);
                        throw e;
                    }
                    for (String slow : race.runningClouds()) {
                        ranking.recordFailure(slow, Op.WRITE, size);
                    }
                    int add = Math.min(needed - acked.size(), ranked.size() - next);
                    for (int i = 0; i < add; i++, next++) {
                        launchUpload(race, ranked.get(next), objectKey, data, uploads, d);
                    }
                    timerAt = System.nanoTime() + (add > 0
                            ? ranking.timerNanos(ranked.get(next - 1), Op.WRITE, size) : d.remainingNanos());
                    continue;
                }
                @SuppressWarnings("unchecked")
                Race.Done<Void> done = (Race.Done<Void>) event;
                if (done.ok()) {
                    acked.add(done.cloudId());
                } else {
                    failed++;
                    failures.add(done.error());
                    if (next < ranked.size()) {
                        launchUpload(race, ranked.get(next), objectKey, data, uploads, d);
                        timerAt = System.nanoTime() + ranking.timerNanos(ranked.get(next), Op.WRITE, size);
                        next++;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("put of '" + objectKey + "' interrupted before its metadata update;"
                    + " nothing was committed", false, e);
        }
        gc.deleteVersion(objectKey, uploads.decide(new LinkedHashSet<>(acked)));
        return acked;
    }

    private void launchUpload(Race<Void> race, String cloudId, String objectKey, byte[] data, Uploads uploads,
                              Deadline d) {
        CloudStore cloud = clouds.get(cloudId);
        boolean inPlace = placement.onCallerThread(cloudId, ranking.timerNanos(cloudId, Op.WRITE, data.length), d);
        race.launch(cloudId, () -> {
            long t0 = System.nanoTime();
            try {
                cloud.put(objectKey, data);
            } catch (RuntimeException e) {
                ranking.recordFailure(cloudId, Op.WRITE, data.length);
                listener.cloudOperation(cloudId, CloudOperation.PUT, objectKey, Outcome.ERROR, since(t0));
                throw e;
            }
            ranking.recordSuccess(cloudId, Op.WRITE, data.length, System.nanoTime() - t0);
            listener.cloudOperation(cloudId, CloudOperation.PUT, objectKey, Outcome.OK, since(t0));
            if (!uploads.stored(cloudId)) {
                gc.deleteObject(cloud, objectKey);
            }
            return null;
        }, inPlace);
    }

    private NotEnoughCloudsException notEnoughClouds(String objectKey, int needed, List<String> acked,
                                                     List<Throwable> failures) {
        NotEnoughCloudsException e = new NotEnoughCloudsException("put of '" + objectKey + "' needs " + needed
                + " clouds (f=" + f + ") but only " + (acked.size()) + " of " + clouds.size()
                + " stored it (" + acked + "); " + failures.size() + " failed, see suppressed exceptions");
        failures.forEach(e::addSuppressed);
        return e;
    }

    // ------------------------------------------------------------------ GET

    /** GET (paper §3.3 and §3.5). */
    public Optional<byte[]> get(String container, String key) {
        Deadline d = Deadline.after(deadline);
        MetadataKey mk = new MetadataKey(container, key);
        long knownAt = cache.now();
        Current cur = read(mk, d);
        if (!cur.live()) {
            return Optional.empty();
        }
        List<Throwable> failures = new ArrayList<>();
        byte[] dataKey = sealer.dataKey(cur.meta, mk.toString());
        byte[] value = cache.lookup(container, key, cur.meta);
        boolean fromCache = value != null;
        if (value == null) {
            value = commonCaseGet(container, key, cur.meta, d, failures);
        }
        if (value != null) {
            cache.served(container, key, cur.meta, value, fromCache, knownAt);
            return Optional.of(sealer.open(dataKey, value));
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

    private List<String> configuredClouds(Metadata meta, String container, String key) {
        List<String> known = meta.clouds().stream().filter(clouds::containsKey).toList();
        if (known.isEmpty()) {
            throw new HybrisException("the value of " + container + "/" + key + " is stored on clouds "
                    + meta.clouds() + ", none of which this client has configured (configured: " + cloudOrder + ")");
        }
        return known;
    }

    /** Tries the listed clouds fastest first, one more whenever a timer expires or a reply fails; null if none. */
    private byte[] commonCaseGet(String container, String key, Metadata meta, Deadline d, List<Throwable> failures) {
        String objectKey = new ObjectKey(container, key, meta.timestamp()).render(prefix);
        if (meta.erasure() != null) {
            return erasure.commonCaseGet(objectKey, meta, d, failures);
        }
        List<String> ranked = ranking.rank(configuredClouds(meta, container, key), Op.READ, meta.size());
        Race<byte[]> race = new Race<>(io);
        int next = 0;
        // requests whose answer has not been taken from the race yet (a finished request leaves the race's
        // running set just before its answer is queued, so that set cannot tell whether one is still coming)
        int outstanding = 1;
        launchGet(race, ranked.get(next++), objectKey, meta, d);
        long timerAt = System.nanoTime() + ranking.timerNanos(ranked.get(0), Op.READ, meta.size());
        try {
            while (true) {
                Object event = race.poll(d.cap(timerAt - System.nanoTime()));
                if (event == null) {
                    if (d.expired()) {
                        throw getDeadline(objectKey, meta, failures);
                    }
                    for (String slow : race.runningClouds()) {
                        ranking.recordFailure(slow, Op.READ, meta.size());
                    }
                    if (next >= ranked.size()) {
                        abandon(race, objectKey);
                        return null;
                    }
                    launchGet(race, ranked.get(next), objectKey, meta, d);
                    outstanding++;
                    timerAt = System.nanoTime() + ranking.timerNanos(ranked.get(next), Op.READ, meta.size());
                    next++;
                    continue;
                }
                @SuppressWarnings("unchecked")
                Race.Done<byte[]> done = (Race.Done<byte[]>) event;
                outstanding--;
                if (done.ok()) {
                    abandon(race, objectKey);
                    return done.value();
                }
                failures.add(done.error());
                if (next < ranked.size()) {
                    launchGet(race, ranked.get(next), objectKey, meta, d);
                    outstanding++;
                    timerAt = System.nanoTime() + ranking.timerNanos(ranked.get(next), Op.READ, meta.size());
                    next++;
                } else if (outstanding == 0) {
                    return null;
                }
            }
        } catch (InterruptedException e) {
            race.cancelAll();
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("get of '" + objectKey + "' interrupted", false, e);
        }
    }

    private void abandon(Race<?> race, String objectKey) {
        for (String cloudId : race.runningClouds()) {
            listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.ABANDONED, Duration.ZERO);
        }
        race.cancelAll();
    }

    /**
     * The worst-case GET (paper §3.5): subscribe to the key, request the value from every listed cloud in
     * parallel, re-request from clouds whose reply failed (with backoff), restart when the metadata changes,
     * give up at the deadline.
     */
    private Optional<byte[]> worstCaseGet(MetadataKey mk, Deadline d, List<Throwable> failures) {
        boolean first = true;
        while (true) {
            if (!first) {
                listener.getRestarted(mk.container(), mk.key());
            }
            first = false;
            Race<byte[]> race = new Race<>(io);
            Race.Signal changed = new Race.Signal("metadata changed");
            WatchedRead watched = callMetadataUnchecked(d, "read of " + mk,
                    () -> metadata.readAndWatch(mk, () -> race.signal(changed)));
            try {
                Current cur = decode(watched.current());
                if (!cur.live()) {
                    return Optional.empty();
                }
                Metadata meta = cur.meta;
                byte[] dataKey = sealer.dataKey(meta, mk.toString());
                String objectKey = new ObjectKey(mk.container(), mk.key(), meta.timestamp()).render(prefix);
                if (meta.erasure() != null) {
                    byte[] stored = erasure.worstCaseRound(race, changed, objectKey, meta, d, failures);
                    if (stored != null) {
                        return Optional.of(sealer.open(dataKey, stored));
                    }
                    continue; // metadata changed or the round ended: re-read
                }
                List<String> targets = configuredClouds(meta, mk.container(), mk.key());
                Map<String, Long> retryAt = new HashMap<>();
                Map<String, Long> backoff = new HashMap<>();
                targets.forEach(c -> launchGet(race, c, objectKey, meta, d));
                long roundEnd = System.nanoTime() + WORST_CASE_ROUND_NANOS;
                while (true) {
                    long now = System.nanoTime();
                    long wake = roundEnd;
                    for (long t : retryAt.values()) {
                        wake = Math.min(wake, t);
                    }
                    Object event = race.poll(d.cap(wake - now));
                    if (event == changed) {
                        break; // restart with the new metadata
                    }
                    if (event == null) {
                        if (d.expired()) {
                            throw getDeadline(objectKey, meta, failures);
                        }
                        now = System.nanoTime();
                        if (now >= roundEnd) {
                            break; // re-read metadata in case a notification was lost
                        }
                        for (Map.Entry<String, Long> e : new ArrayList<>(retryAt.entrySet())) {
                            if (e.getValue() <= now) {
                                retryAt.remove(e.getKey());
                                launchGet(race, e.getKey(), objectKey, meta, d);
                            }
                        }
                        continue;
                    }
                    @SuppressWarnings("unchecked")
                    Race.Done<byte[]> done = (Race.Done<byte[]>) event;
                    if (done.ok()) {
                        abandon(race, objectKey);
                        return Optional.of(sealer.open(dataKey, done.value()));
                    }
                    failures.add(done.error());
                    long wait = backoff.merge(done.cloudId(), RETRY_BACKOFF_MIN_NANOS,
                            (old, min) -> Math.min(old * 2, RETRY_BACKOFF_MAX_NANOS));
                    retryAt.put(done.cloudId(), System.nanoTime() + wait);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CallInterruptedException("get of " + mk + " interrupted", false, e);
            } finally {
                race.cancelAll();
                watched.subscription().cancel();
            }
        }
    }

    private DeadlineExceededException getDeadline(String objectKey, Metadata meta, List<Throwable> failures) {
        DeadlineExceededException e = new DeadlineExceededException("get of '" + objectKey + "' found no copy"
                + " matching the metadata hash on clouds " + meta.clouds() + " within " + deadline + " ("
                + failures.size() + " failed attempts, see suppressed exceptions)");
        failures.stream().limit(20).forEach(e::addSuppressed);
        return e;
    }

    /** Fetches from one cloud, cut at the recorded size, and verifies the hash; a mismatch is an error. */
    private void launchGet(Race<byte[]> race, String cloudId, String objectKey, Metadata meta, Deadline d) {
        CloudStore cloud = clouds.get(cloudId);
        boolean inPlace = placement.onCallerThread(cloudId, ranking.timerNanos(cloudId, Op.READ, meta.size()), d);
        race.launch(cloudId, () -> {
            long t0 = System.nanoTime();
            Optional<byte[]> got;
            MessageDigest arrived = Hashing.newSha256(); // hashed while the bytes arrive
            try {
                got = cloud.get(objectKey, meta.size(), arrived::update);
            } catch (OversizedObjectException e) {
                ranking.recordFailure(cloudId, Op.READ, meta.size());
                listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.OVERSIZED, since(t0));
                throw e;
            } catch (RuntimeException e) {
                ranking.recordFailure(cloudId, Op.READ, meta.size());
                listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.ERROR, since(t0));
                throw e;
            }
            if (got.isEmpty()) {
                listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.NOT_FOUND, since(t0));
                throw new CloudValueException(cloudId + " has no object '" + objectKey + "'");
            }
            byte[] value = got.get();
            if (value.length != meta.size() || !Hashing.matches(meta.sha256(), arrived.digest())) {
                ranking.recordFailure(cloudId, Op.READ, meta.size());
                listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.CORRUPT, since(t0));
                throw new CloudValueException(cloudId + " returned " + value.length + " bytes for '" + objectKey
                        + "' that do not match the metadata hash");
            }
            ranking.recordSuccess(cloudId, Op.READ, meta.size(), System.nanoTime() - t0);
            listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.OK, since(t0));
            return value;
        }, inPlace);
    }

    /** A cloud answered, but not with the value the metadata describes. */
    static final class CloudValueException extends HybrisException {
        private static final long serialVersionUID = 1L;

        CloudValueException(String message) {
            super(message);
        }
    }

    // ------------------------------------------------------------------ TPUT

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
            read.put(k, read(new MetadataKey(container, k), d));
        }
        Map<String, Metadata> written = new LinkedHashMap<>();
        Map<String, String> objectKeys = new LinkedHashMap<>();
        List<Future<Metadata>> futures = new ArrayList<>();
        for (Map.Entry<String, Sealer.Sealed> e : data.entrySet()) {
            Timestamp ts = read.get(e.getKey()).timestamp(clientId).next(clientId, writeIds.next());
            String objectKey = new ObjectKey(container, e.getKey(), ts).render(prefix);
            objectKeys.put(e.getKey(), objectKey);
            Sealer.Sealed sealed = e.getValue();
            futures.add(metadataCalls.submit(() -> store(container, objectKey, ts, sealed, d)));
        }
        int i = 0;
        RuntimeException failure = null;
        for (Map.Entry<String, Sealer.Sealed> e : data.entrySet()) {
            try {
                written.put(e.getKey(), futures.get(i++).get());
            } catch (ExecutionException ex) {
                failure = failure != null ? failure : ex.getCause() instanceof RuntimeException r ? r
                        : new HybrisException("tput upload failed", ex.getCause());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                failure = new CallInterruptedException("tput of " + data.size() + " keys in " + container
                        + " interrupted before its metadata update; nothing was committed", false, ex);
                break;
            }
        }
        if (failure != null) {
            futures.forEach(fut -> fut.cancel(true)); // uploads still running end up as orphans for the sweep
            written.forEach((k, m) -> gc.deleteVersion(objectKeys.get(k), m.clouds()));
            throw failure;
        }
        long knownAt = cache.now();
        try {
            commitAll(container, written, read, objectKeys, d);
        } catch (RuntimeException e) {
            written.keySet().forEach(k -> cache.writeFailed(container, k, null));
            throw e;
        }
        written.forEach((k, m) -> cache.committed(container, k, m, data.get(k).stored(), knownAt, null));
    }

    private void commitAll(String container, Map<String, Metadata> written, Map<String, Current> read,
                           Map<String, String> objectKeys, Deadline d) {
        Map<String, Current> replaced = new LinkedHashMap<>(read);
        while (true) {
            List<MetadataUpdate> updates = new ArrayList<>();
            written.forEach((k, m) -> updates.add(new MetadataUpdate(new MetadataKey(container, k),
                    MetadataCodec.encode(m), replaced.get(k).version)));
            try {
                callMetadata(d, "transactional update of " + written.size() + " keys in " + container, true, () -> {
                    metadata.conditionalUpdateAll(updates);
                    return null;
                });
                replaced.forEach((k, c) -> gc.collectSuperseded(container, k, c.meta));
                return;
            } catch (VersionConflictException conflict) {
                // the update is atomic: our identity on any one key proves the whole transaction landed (a store
                // that retried a request after a lost answer), even if a newer write has since replaced another key
                boolean landed = false;
                List<String> newer = new ArrayList<>();
                for (Map.Entry<String, Metadata> e : written.entrySet()) {
                    Current now = read(new MetadataKey(container, e.getKey()), d);
                    Timestamp stored = now.meta == null ? null : now.meta.timestamp();
                    landed |= isOurs(now.meta, e.getValue());
                    if (stored != null && !stored.isAfter(e.getValue().timestamp())
                            && !stored.equals(e.getValue().timestamp())) {
                        replaced.put(e.getKey(), now);
                    } else if (stored != null && stored.isAfter(e.getValue().timestamp())) {
                        newer.add(e.getKey());
                    }
                }
                if (landed) {
                    replaced.forEach((k, c) -> gc.collectSuperseded(container, k, c.meta));
                    return;
                }
                if (!newer.isEmpty()) {
                    written.forEach((k, m) -> gc.deleteVersion(objectKeys.get(k), m.clouds()));
                    throw new TransactionAbortedException("tput of " + written.size() + " keys in " + container
                            + " aborted: a concurrent write with a newer timestamp committed first to " + newer
                            + "; nothing was written");
                }
            }
            // any other exception: the outcome is unknown, the copies stay for the sweep (see commit)
        }
    }

    // ------------------------------------------------------------------ LIST / DESCRIBE

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
            MetadataPage page = callListing(d, "list of " + container,
                    () -> metadata.list(container, prefixFilter == null ? "" : prefixFilter, from, limit));
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
        Current cur = read(new MetadataKey(container, key), Deadline.after(deadline));
        if (!cur.live()) {
            return Optional.empty();
        }
        Metadata m = cur.meta;
        return Optional.of(new VersionInfo(m.timestamp().sn(), m.timestamp().clientId(), m.clouds(), m.size(),
                Hashing.hex(m.sha256()), m.timestamp().toString()));
    }

    /**
     * KEK rotation: re-wraps the data key of every encrypted version in every container under the key provider's
     * current KEK, rewriting only metadata (same timestamp, clouds and hash; no cloud object is touched), each
     * with a conditional update so a concurrent write is never overwritten (on a conflict the entry is re-read
     * and handled again). Entries already under the current KEK are skipped, so an interrupted rotation is
     * resumed by running it again.
     */
    public RewrapReport rewrapDataKeys() {
        if (!sealer.encrypts()) {
            throw new InvalidRequestException("re-wrapping data keys needs a key provider: configure"
                    + " hybris.crypto.mode (or HybrisConfig.Builder.encryption) first");
        }
        int examined = 0;
        int rewrapped = 0;
        int current = 0;
        int plaintext = 0;
        Deadline unbounded = Deadline.after(Duration.ofDays(365));
        for (String container : callListing(unbounded, "list of containers", metadata::containers)) {
            String after = null;
            MetadataPage page;
            do {
                String from = after;
                page = callListing(unbounded, "list of " + container,
                        () -> metadata.list(container, "", from, 500));
                for (MetadataEntry entry : page.entries()) {
                    after = entry.key();
                    examined++;
                    switch (rewrapOne(new MetadataKey(container, entry.key()), entry)) {
                        case REWRAPPED -> rewrapped++;
                        case CURRENT -> current++;
                        default -> plaintext++;
                    }
                }
            } while (page.hasMore());
        }
        RewrapReport report = new RewrapReport(examined, rewrapped, current, plaintext);
        LOG.info("data key re-wrap: {}", report);
        return report;
    }

    private enum RewrapOutcome { REWRAPPED, CURRENT, NOT_ENCRYPTED }

    private RewrapOutcome rewrapOne(MetadataKey mk, MetadataEntry listed) {
        Current cur = new Current(MetadataCodec.decode(listed.value()), listed.version());
        while (true) {
            if (!cur.live() || cur.meta.encryption() == null) {
                return RewrapOutcome.NOT_ENCRYPTED;
            }
            Metadata.Encryption rewrapped = sealer.rewrap(cur.meta, mk.toString());
            if (rewrapped == null) {
                return RewrapOutcome.CURRENT;
            }
            byte[] encoded = MetadataCodec.encode(cur.meta.withEncryption(rewrapped));
            MetadataVersion expected = cur.version;
            try {
                callMetadata(Deadline.after(deadline), "re-wrap of " + mk, true, () -> {
                    metadata.conditionalUpdate(new MetadataUpdate(mk, encoded, expected));
                    return null;
                });
                return RewrapOutcome.REWRAPPED;
            } catch (VersionConflictException e) {
                cur = read(mk, Deadline.after(deadline)); // a concurrent write or re-wrap: look again
            }
        }
    }

    /** The orphan sweep (see {@link GarbageCollector#sweep()}). */
    public SweepReport sweep() {
        return gc.sweep();
    }

    // ------------------------------------------------------------------ helpers

    private void checkValue(String key, byte[] value) {
        if (value == null) {
            throw new InvalidRequestException("value for key '" + key + "' must not be null; use delete to remove a key");
        }
        if (value.length > maxValueSize) {
            throw new InvalidRequestException("value for key '" + key + "' is " + value.length
                    + " bytes, above hybris.value.max-size=" + maxValueSize + "; raise the limit or split the value");
        }
    }

    private Current read(MetadataKey mk, Deadline d) {
        return decode(callMetadataUnchecked(d, "read of " + mk, () -> metadata.read(mk)));
    }

    private static Current decode(Optional<VersionedValue> v) {
        return v.map(x -> new Current(MetadataCodec.decode(x.value()), x.version())).orElse(Current.NONE);
    }

    private <T> T callMetadataUnchecked(Deadline d, String what, Callable<T> call) {
        return callMetadataUnchecked(d, what, true, call);
    }

    /** A listing: several store requests, so not covered by the store's call-time bound; always off-thread. */
    private <T> T callListing(Deadline d, String what, Callable<T> call) {
        return callMetadataUnchecked(d, what, false, call);
    }

    private <T> T callMetadataUnchecked(Deadline d, String what, boolean singleCall, Callable<T> call) {
        try {
            return callMetadata(d, what, false, singleCall, call);
        } catch (VersionConflictException e) {
            throw new MetadataStoreException(what + ": unexpected version conflict", e);
        }
    }

    private <T> T callMetadata(Deadline d, String what, boolean isWrite, Callable<T> call)
            throws VersionConflictException {
        return callMetadata(d, what, isWrite, true, call);
    }

    /**
     * Runs a metadata store call bounded by the deadline. A write whose answer does not arrive in time has an
     * unknown outcome, and the exception says so.
     */
    private <T> T callMetadata(Deadline d, String what, boolean isWrite, boolean singleCall, Callable<T> call)
            throws VersionConflictException {
        if (d.expired()) {
            throw new DeadlineExceededException(what + " not attempted: the call's deadline of " + deadline
                    + " has passed");
        }
        if (singleCall && metadataCallBoundNanos >= 0 && d.remainingNanos() > metadataCallBoundNanos) {
            return callMetadataInline(what, isWrite, call);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        Future<?> future = metadataCalls.submit(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            CompletableFuture.anyOf(result, closing).get(d.remainingNanos(), TimeUnit.NANOSECONDS);
            if (!result.isDone()) { // the client is closing: do not wait for a store that may not answer
                future.cancel(true);
                throw new ClientClosedException(what + " abandoned: the client was closed"
                        + (isWrite ? "; the write's outcome is unknown" : ""));
            }
            return result.get();
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new DeadlineExceededException(what + " on " + metadata.describe() + " did not complete within "
                    + deadline + (isWrite ? "; the write's outcome is unknown" : ""));
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new CallInterruptedException(what + " interrupted" + (isWrite
                    ? "; the request may have reached " + metadata.describe() + ", so the write's outcome is unknown"
                    : ""), isWrite, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof VersionConflictException v) {
                throw v;
            }
            if (cause instanceof HybrisException h) {
                throw h;
            }
            throw new MetadataStoreException(what + " on " + metadata.describe() + " failed: " + cause, cause);
        }
    }

    /**
     * Runs a metadata call on the caller's thread: the store bounds its own call time and the deadline leaves
     * more than that bound, so waiting on another thread would only add two hand-offs.
     */
    private <T> T callMetadataInline(String what, boolean isWrite, Callable<T> call) throws VersionConflictException {
        try {
            return call.call();
        } catch (VersionConflictException | HybrisException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException(what + " interrupted" + (isWrite ? "; the write's outcome is unknown" : ""),
                    isWrite, e);
        } catch (Exception e) {
            throw new MetadataStoreException(what + " on " + metadata.describe() + " failed: " + e, e);
        }
    }

    private static Duration since(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Shields the protocol from a listener that throws. */
    private static final class SafeListener implements HybrisListener {
        private final HybrisListener delegate;

        SafeListener(HybrisListener delegate) {
            this.delegate = delegate;
        }

        private static void guard(Runnable call) {
            try {
                call.run();
            } catch (RuntimeException e) {
                LOG.warn("listener failed", e);
            }
        }

        @Override
        public void cloudOperation(String cloudId, CloudOperation op, String objectKey, Outcome outcome,
                                   Duration latency) {
            guard(() -> delegate.cloudOperation(cloudId, op, objectKey, outcome, latency));
        }

        @Override
        public void getRestarted(String container, String key) {
            guard(() -> delegate.getRestarted(container, key));
        }

        @Override
        public void worstCaseGet(String container, String key) {
            guard(() -> delegate.worstCaseGet(container, key));
        }

        @Override
        public void garbageCollected(String cloudId, String objectKey) {
            guard(() -> delegate.garbageCollected(cloudId, objectKey));
        }
    }
}
