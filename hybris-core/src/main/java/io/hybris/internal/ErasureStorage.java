package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfig.ErasurePolicy;
import io.hybris.HybrisException;
import io.hybris.HybrisListener;
import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.Outcome;
import io.hybris.NotEnoughCloudsException;
import io.hybris.internal.LatencyRanking.Op;
import io.hybris.spi.CloudStore;
import io.hybris.spi.ErasureCoder;
import io.hybris.spi.OversizedObjectException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Erasure-coded storage of one version (paper §3.9): PUT encodes the stored bytes into {@code k} data and
 * {@code f} parity chunks and stores one chunk per cloud on the {@code k+f} clouds ranked fastest, under the
 * version's object key (so garbage collection and the orphan sweep treat chunks like replicas); a chunk whose
 * cloud fails or whose timer expires is also sent to the next cloud (at most {@code 2f+k} clouds). GET fetches the
 * {@code k} fastest chunks in parallel, checks each against its SHA-256 in metadata and decodes; a chunk that is
 * missing, corrupt, oversized or slow is replaced by the next one. Thread-safe: every call keeps its state on its
 * own stack.
 */
final class ErasureStorage {
    private static final Logger LOG = LoggerFactory.getLogger(ErasureStorage.class);
    private static final long WORST_CASE_ROUND_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long RETRY_BACKOFF_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long RETRY_BACKOFF_MAX_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** Where the chunks of a version went: {@code clouds.get(i)} holds chunk {@code i}. */
    record Placement(List<String> clouds, Metadata.Erasure erasure) {
    }

    private final HybrisConfig config;
    private final int f;
    private final Map<String, CloudStore> clouds;
    private final List<String> cloudOrder;
    private final LatencyRanking ranking;
    private final HybrisListener listener;
    private final ExecutorService io;
    private final GarbageCollector gc;
    private final CloudCallPlacement placement;
    private final ErasureCoders coders;

    ErasureStorage(HybrisConfig config, Map<String, CloudStore> clouds, List<String> cloudOrder,
                   LatencyRanking ranking, HybrisListener listener, ExecutorService io, GarbageCollector gc,
                   CloudCallPlacement placement) {
        this.config = config;
        this.placement = placement;
        this.f = config.f();
        this.clouds = clouds;
        this.cloudOrder = cloudOrder;
        this.ranking = ranking;
        this.listener = listener;
        this.io = io;
        this.gc = gc;
        this.coders = new ErasureCoders(config.erasureCoder());
        if (config.erasureCodingUsed() || !config.erasureCoder().equals("auto")) {
            ErasureCoder coder = coders.resolveNow().coder(config.erasureDataChunks(), f);
            if (config.erasureCodingUsed()) {
                LOG.info("erasure coding: k={} data + f={} parity chunks, {} coder", config.erasureDataChunks(), f,
                        coder.name());
            }
        }
    }

    /** Whether a stored value of {@code size} bytes in {@code container} is erasure-coded. */
    boolean applies(String container, long size) {
        ErasurePolicy policy = config.erasurePolicy(container);
        return policy == ErasurePolicy.ERASURE
                || policy == ErasurePolicy.THRESHOLD && size >= config.erasureThreshold(container);
    }

    // ------------------------------------------------------------------ PUT

    /** Encodes and uploads; on failure deletes what was stored and throws. */
    Placement upload(String objectKey, byte[] data, Deadline d) {
        Uploads uploads = new Uploads();
        try {
            return uploadOrThrow(objectKey, data, d, uploads);
        } catch (RuntimeException e) {
            gc.deleteVersion(objectKey, uploads.decide(Set.of()));
            throw e;
        }
    }

    private Placement uploadOrThrow(String objectKey, byte[] data, Deadline d, Uploads uploads) {
        int k = config.erasureDataChunks();
        ErasureCoder coder = coders.coder(k, f);
        byte[][] chunks = coder.encodeValue(data);
        int n = chunks.length;
        long size = coder.chunkLength(data.length);
        List<byte[]> hashes = new ArrayList<>(n);
        for (byte[] chunk : chunks) {
            hashes.add(Hashing.sha256(chunk));
        }
        List<String> ranked = ranking.rank(cloudOrder, Op.WRITE, size);
        if (ranked.size() < n) {
            throw new NotEnoughCloudsException("put of '" + objectKey + "' needs " + n + " clouds (k=" + k + ", f="
                    + f + ") but " + ranked.size() + " are configured");
        }
        Race<Void> race = new Race<>(io);
        Map<String, Integer> chunkOf = new HashMap<>();
        String[] holder = new String[n];
        int[] inFlight = new int[n];
        List<Throwable> failures = new ArrayList<>();
        int next = 0;
        int stored = 0;
        long timerAt = System.nanoTime();
        for (int i = 0; i < n; i++, next++) {
            launchUpload(race, ranked.get(next), objectKey, chunks[i], uploads, d);
            chunkOf.put(ranked.get(next), i);
            inFlight[i]++;
            timerAt = Math.max(timerAt, System.nanoTime() + ranking.timerNanos(ranked.get(next), Op.WRITE, size));
        }
        try {
            while (stored < n) {
                for (int i = 0; i < n; i++) {
                    if (holder[i] == null && inFlight[i] == 0) {
                        throw notEnoughClouds(objectKey, n, holder, failures);
                    }
                }
                Object event = race.poll(d.cap(timerAt - System.nanoTime()));
                if (event == null) {
                    if (d.expired()) {
                        DeadlineExceededException e = new DeadlineExceededException("put of '" + objectKey
                                + "' did not store all " + n + " chunks within " + config.deadline() + "; stored on "
                                + Arrays.toString(holder) + ", still waiting for " + race.runningClouds());
                        failures.forEach(e::addSuppressed);
                        throw e;
                    }
                    for (String slow : race.runningClouds()) {
                        ranking.recordFailure(slow, Op.WRITE, size);
                    }
                    // secondaries: every chunk not yet stored also goes to the next cloud
                    String last = null;
                    for (int i = 0; i < n && next < ranked.size(); i++) {
                        if (holder[i] == null) {
                            last = ranked.get(next++);
                            launchUpload(race, last, objectKey, chunks[i], uploads, d);
                            chunkOf.put(last, i);
                            inFlight[i]++;
                        }
                    }
                    timerAt = System.nanoTime() + (last != null
                            ? ranking.timerNanos(last, Op.WRITE, size) : d.remainingNanos());
                    continue;
                }
                @SuppressWarnings("unchecked")
                Race.Done<Void> done = (Race.Done<Void>) event;
                int chunk = chunkOf.get(done.cloudId());
                inFlight[chunk]--;
                if (done.ok()) {
                    if (holder[chunk] == null) {
                        holder[chunk] = done.cloudId();
                        stored++;
                    }
                } else {
                    failures.add(done.error());
                    if (holder[chunk] == null && next < ranked.size()) {
                        String cloud = ranked.get(next++);
                        launchUpload(race, cloud, objectKey, chunks[chunk], uploads, d);
                        chunkOf.put(cloud, chunk);
                        inFlight[chunk]++;
                        timerAt = System.nanoTime() + ranking.timerNanos(cloud, Op.WRITE, size);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("put of '" + objectKey + "' interrupted before its metadata update;"
                    + " nothing was committed", false, e);
        }
        List<String> placement = List.of(holder);
        gc.deleteVersion(objectKey, uploads.decide(new LinkedHashSet<>(placement)));
        return new Placement(placement, new Metadata.Erasure(k, hashes));
    }

    private void launchUpload(Race<Void> race, String cloudId, String objectKey, byte[] chunk, Uploads uploads,
                              Deadline d) {
        CloudStore cloud = clouds.get(cloudId);
        boolean inPlace = placement.onCallerThread(cloudId, ranking.timerNanos(cloudId, Op.WRITE, chunk.length), d);
        race.launch(cloudId, () -> {
            long t0 = System.nanoTime();
            try {
                cloud.put(objectKey, chunk);
            } catch (RuntimeException e) {
                ranking.recordFailure(cloudId, Op.WRITE, chunk.length);
                listener.cloudOperation(cloudId, CloudOperation.PUT, objectKey, Outcome.ERROR, since(t0));
                throw e;
            }
            ranking.recordSuccess(cloudId, Op.WRITE, chunk.length, System.nanoTime() - t0);
            listener.cloudOperation(cloudId, CloudOperation.PUT, objectKey, Outcome.OK, since(t0));
            if (!uploads.stored(cloudId)) {
                gc.deleteObject(cloud, objectKey);
            }
            return null;
        }, inPlace);
    }

    private NotEnoughCloudsException notEnoughClouds(String objectKey, int n, String[] holder,
                                                     List<Throwable> failures) {
        NotEnoughCloudsException e = new NotEnoughCloudsException("put of '" + objectKey + "' needs its " + n
                + " chunks (k=" + (n - f) + ", f=" + f + ") on " + n + " different clouds, but only "
                + Arrays.stream(holder).filter(h -> h != null).count() + " of " + clouds.size() + " clouds stored"
                + " one (" + Arrays.toString(holder) + "); " + failures.size() + " failed, see suppressed exceptions");
        failures.forEach(e::addSuppressed);
        return e;
    }

    // ------------------------------------------------------------------ GET

    /**
     * The common-case GET of an erasure-coded version: the {@code k} fastest chunks in parallel, one more chunk
     * whenever a timer expires or a reply fails. Returns the stored bytes, or null when the listed clouds cannot
     * provide {@code k} valid chunks (the caller then runs the worst case).
     */
    byte[] commonCaseGet(String objectKey, Metadata meta, Deadline d, List<Throwable> failures) {
        Metadata.Erasure erasure = meta.erasure();
        int k = erasure.dataChunks();
        long length = erasure.chunkLength(meta.size());
        Map<String, Integer> chunkOf = chunkIndexes(objectKey, meta);
        List<String> ranked = ranking.rank(new ArrayList<>(chunkOf.keySet()), Op.READ, length);
        Chunks got = new Chunks(erasure.totalChunks());
        Race<byte[]> race = new Race<>(io);
        int next = 0; // requests launched
        int answered = 0; // their completions taken from the race (a finished request may still be queued)
        long timerAt = System.nanoTime();
        for (; next < Math.min(k, ranked.size()); next++) {
            launchGet(race, ranked.get(next), objectKey, meta, chunkOf.get(ranked.get(next)), d);
            timerAt = Math.max(timerAt, System.nanoTime() + ranking.timerNanos(ranked.get(next), Op.READ, length));
        }
        try {
            while (true) {
                Object event = race.poll(d.cap(timerAt - System.nanoTime()));
                if (event == null) {
                    if (d.expired()) {
                        throw deadline(objectKey, meta, failures);
                    }
                    for (String slow : race.runningClouds()) {
                        ranking.recordFailure(slow, Op.READ, length);
                    }
                    if (next >= ranked.size()) {
                        abandon(race, objectKey);
                        return null;
                    }
                    launchGet(race, ranked.get(next), objectKey, meta, chunkOf.get(ranked.get(next)), d);
                    timerAt = System.nanoTime() + ranking.timerNanos(ranked.get(next), Op.READ, length);
                    next++;
                    continue;
                }
                @SuppressWarnings("unchecked")
                Race.Done<byte[]> done = (Race.Done<byte[]>) event;
                answered++;
                if (done.ok()) {
                    got.add(chunkOf.get(done.cloudId()), done.value());
                    if (got.count() >= k) {
                        abandon(race, objectKey);
                        return decode(objectKey, meta, got);
                    }
                    if (next >= ranked.size() && answered == next) {
                        return null; // every listed cloud answered: fewer than k valid chunks
                    }
                    continue;
                }
                failures.add(done.error());
                if (next < ranked.size()) {
                    launchGet(race, ranked.get(next), objectKey, meta, chunkOf.get(ranked.get(next)), d);
                    timerAt = System.nanoTime() + ranking.timerNanos(ranked.get(next), Op.READ, length);
                    next++;
                } else if (answered == next) {
                    return null;
                }
            }
        } catch (InterruptedException e) {
            race.cancelAll();
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("get of '" + objectKey + "' interrupted", false, e);
        }
    }

    /**
     * One round of the worst-case GET (paper §3.5) for an erasure-coded version: every listed cloud in parallel,
     * failed ones re-requested with backoff, until {@code k} valid chunks decode. Returns the stored bytes, or
     * null when the caller should re-read metadata ({@code changed} was signalled, or the round ended).
     */
    byte[] worstCaseRound(Race<byte[]> race, Race.Signal changed, String objectKey, Metadata meta, Deadline d,
                          List<Throwable> failures) throws InterruptedException {
        Metadata.Erasure erasure = meta.erasure();
        int k = erasure.dataChunks();
        Map<String, Integer> chunkOf = chunkIndexes(objectKey, meta);
        Chunks got = new Chunks(erasure.totalChunks());
        Map<String, Long> retryAt = new HashMap<>();
        Map<String, Long> backoff = new HashMap<>();
        chunkOf.forEach((cloud, chunk) -> launchGet(race, cloud, objectKey, meta, chunk, d));
        long roundEnd = System.nanoTime() + WORST_CASE_ROUND_NANOS;
        while (true) {
            long now = System.nanoTime();
            long wake = roundEnd;
            for (long t : retryAt.values()) {
                wake = Math.min(wake, t);
            }
            Object event = race.poll(d.cap(wake - now));
            if (event == changed) {
                return null;
            }
            if (event == null) {
                if (d.expired()) {
                    throw deadline(objectKey, meta, failures);
                }
                now = System.nanoTime();
                if (now >= roundEnd) {
                    return null;
                }
                for (Map.Entry<String, Long> e : new ArrayList<>(retryAt.entrySet())) {
                    if (e.getValue() <= now) {
                        retryAt.remove(e.getKey());
                        launchGet(race, e.getKey(), objectKey, meta, chunkOf.get(e.getKey()), d);
                    }
                }
                continue;
            }
            if (!(event instanceof Race.Done<?>)) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Race.Done<byte[]> done = (Race.Done<byte[]>) event;
            if (done.ok()) {
                got.add(chunkOf.get(done.cloudId()), done.value());
                if (got.count() >= k) {
                    abandon(race, objectKey);
                    return decode(objectKey, meta, got);
                }
                continue;
            }
            failures.add(done.error());
            long wait = backoff.merge(done.cloudId(), RETRY_BACKOFF_MIN_NANOS,
                    (old, min) -> Math.min(old * 2, RETRY_BACKOFF_MAX_NANOS));
            retryAt.put(done.cloudId(), System.nanoTime() + wait);
        }
    }

    /** The configured clouds holding a chunk of this version, with their chunk index. */
    private Map<String, Integer> chunkIndexes(String objectKey, Metadata meta) {
        Map<String, Integer> chunkOf = new HashMap<>();
        for (int i = 0; i < meta.clouds().size(); i++) {
            if (clouds.containsKey(meta.clouds().get(i))) {
                chunkOf.put(meta.clouds().get(i), i);
            }
        }
        if (chunkOf.size() < meta.erasure().dataChunks()) {
            throw new HybrisException("'" + objectKey + "' is erasure-coded into " + meta.erasure().totalChunks()
                    + " chunks on clouds " + meta.clouds() + ", " + meta.erasure().dataChunks() + " needed, but only "
                    + chunkOf.size() + " of them are configured in this client (configured: " + cloudOrder + ")");
        }
        return chunkOf;
    }

    private byte[] decode(String objectKey, Metadata meta, Chunks got) {
        Metadata.Erasure erasure = meta.erasure();
        ErasureCoder coder = coders.coder(erasure.dataChunks(), erasure.totalChunks() - erasure.dataChunks());
        byte[] value = coder.decodeValue(got.chunks, got.present, meta.size());
        if (!Hashing.matches(meta.sha256(), Hashing.sha256(value))) {
            throw new HybrisException("'" + objectKey + "': the " + erasure.dataChunks() + " verified chunks decode"
                    + " to bytes that do not match the version's hash; the " + coder.name()
                    + " erasure coder disagrees with the writer's (report this as a bug)");
        }
        return value;
    }

    /** Fetches one chunk, cut at the chunk length, and verifies its hash; a mismatch is an error. */
    private void launchGet(Race<byte[]> race, String cloudId, String objectKey, Metadata meta, int chunk,
                           Deadline d) {
        CloudStore cloud = clouds.get(cloudId);
        long length = meta.erasure().chunkLength(meta.size());
        byte[] hash = meta.erasure().chunkHashes().get(chunk);
        boolean inPlace = placement.onCallerThread(cloudId, ranking.timerNanos(cloudId, Op.READ, length), d);
        race.launch(cloudId, () -> {
            long t0 = System.nanoTime();
            Optional<byte[]> got;
            MessageDigest arrived = Hashing.newSha256(); // hashed while the bytes arrive
            try {
                got = cloud.get(objectKey, length, arrived::update);
            } catch (OversizedObjectException e) {
                ranking.recordFailure(cloudId, Op.READ, length);
                listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.OVERSIZED, since(t0));
                throw e;
            } catch (RuntimeException e) {
                ranking.recordFailure(cloudId, Op.READ, length);
                listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.ERROR, since(t0));
                throw e;
            }
            if (got.isEmpty()) {
                listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.NOT_FOUND, since(t0));
                throw new Engine.CloudValueException(cloudId + " has no chunk '" + objectKey + "'");
            }
            byte[] value = got.get();
            if (value.length != length || !Hashing.matches(hash, arrived.digest())) {
                ranking.recordFailure(cloudId, Op.READ, length);
                listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.CORRUPT, since(t0));
                throw new Engine.CloudValueException(cloudId + " returned " + value.length + " bytes for chunk "
                        + chunk + " of '" + objectKey + "' that do not match the metadata hash");
            }
            ranking.recordSuccess(cloudId, Op.READ, length, System.nanoTime() - t0);
            listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.OK, since(t0));
            return value;
        }, inPlace);
    }

    private void abandon(Race<?> race, String objectKey) {
        for (String cloudId : race.runningClouds()) {
            listener.cloudOperation(cloudId, CloudOperation.GET, objectKey, Outcome.ABANDONED, Duration.ZERO);
        }
        race.cancelAll();
    }

    private DeadlineExceededException deadline(String objectKey, Metadata meta, List<Throwable> failures) {
        DeadlineExceededException e = new DeadlineExceededException("get of '" + objectKey + "' found fewer than "
                + meta.erasure().dataChunks() + " chunks matching the metadata hashes on clouds " + meta.clouds()
                + " within " + config.deadline() + " (" + failures.size() + " failed attempts, see suppressed"
                + " exceptions)");
        failures.stream().limit(20).forEach(e::addSuppressed);
        return e;
    }

    private static Duration since(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** The verified chunks collected so far. */
    private static final class Chunks {
        final byte[][] chunks;
        final boolean[] present;
        private int count;

        Chunks(int n) {
            chunks = new byte[n][];
            present = new boolean[n];
        }

        void add(int index, byte[] chunk) {
            if (!present[index]) {
                present[index] = true;
                chunks[index] = chunk;
                count++;
            }
        }

        int count() {
            return count;
        }
    }
}
