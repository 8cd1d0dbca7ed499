/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisListener;
import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.GcCause;
import io.hybris.HybrisListener.MetadataOperation;
import io.hybris.HybrisListener.MetadataOutcome;
import io.hybris.HybrisListener.Outcome;
import io.hybris.MetadataUnavailableException;
import io.hybris.SweepReport;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.VersionedValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * Deletes versions that metadata no longer references (paper §3.4): the version a successful conditional
 * update replaced, the uploads of a write that lost or failed, and, in {@link #sweep()}, any object under the
 * Hybris prefix that no metadata references (left by a crashed client), once older than the grace period.
 * Deletions run in the background on the GC executor, except from clouds that bound their calls (in-memory ones),
 * deleted from on the calling thread. Never touches objects outside the prefix.
 */
final class GarbageCollector {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);

    private final Map<String, CloudStore> clouds;
    private final MetadataStore metadata;
    private final ExecutorService executor;
    private final String prefix;
    private final Duration grace;
    private final HybrisListener listener;
    private final boolean enabled;
    /** Which clouds bound their calls ({@link CloudStore#callTimeBound()}): those are deleted from in one task. */
    private final CloudCallPlacement placement;
    /** Collects superseded versions after {@code hybris.get.superseded-retention}; null: at once. */
    private final java.util.concurrent.Executor retained;
    /** {@code hybris.get.superseded-retention}: the sweep keeps a version superseded more recently than this. */
    private final Duration retention;
    /** Leftover chunks of completed uploads in parts a cloud failed to delete: each sweep tries again. */
    private final LeftoverChunks leftovers = new LeftoverChunks();

    GarbageCollector(Map<String, CloudStore> clouds, MetadataStore metadata, ExecutorService executor, String prefix,
                     Duration grace, HybrisListener listener, boolean enabled, Duration retention) {
        this.clouds = clouds;
        this.metadata = metadata;
        this.executor = executor;
        this.prefix = prefix;
        this.grace = grace;
        this.listener = listener;
        this.enabled = enabled;
        this.placement = new CloudCallPlacement(clouds);
        this.retention = retention;
        this.retained = retention.isZero() ? null
                : java.util.concurrent.CompletableFuture.delayedExecutor(retention.toMillis(),
                        java.util.concurrent.TimeUnit.MILLISECONDS, executor);
    }

    /**
     * Deletes the superseded version {@code replaced} of a key, in the background (if GC is enabled), after
     * {@code hybris.get.superseded-retention} (a version still waiting when the client closes is left for the sweep).
     */
    void collectSuperseded(String container, String key, Metadata replaced) {
        if (!enabled || replaced == null || replaced.isTombstone()) {
            return;
        }
        String objectKey = new ObjectKey(container, key, replaced.timestamp()).render(prefix);
        if (retained == null) {
            deleteWritten(objectKey, replaced, GcCause.SUPERSEDED);
            return;
        }
        try {
            retained.execute(() -> deleteWritten(objectKey, replaced, GcCause.SUPERSEDED));
        } catch (RejectedExecutionException e) {
            LOG.debug("GC executor shut down; superseded version left for the sweep", e);
        }
    }

    /**
     * Deletes a version that metadata no longer references (or never did), in the background: its object from the
     * clouds {@code meta} lists and, for a chunked value, every chunk from every cloud — by name, chunk 0 to n-1 as
     * the recorded length and chunk size give n (a DELETE of an object a cloud does not hold is a no-op, and costs
     * nothing on S3), or, for an entry that does not record its chunk size, by listing the version's chunk prefix.
     */
    void deleteWritten(String objectKey, Metadata meta) {
        deleteWritten(objectKey, meta, GcCause.UNREFERENCED);
    }

    private void deleteWritten(String objectKey, Metadata meta, GcCause cause) {
        deleteVersion(objectKey, meta.clouds(), cause);
        if (meta.isChunked()) {
            String chunkPrefix = objectKey + "#c";
            long chunks = meta.chunked().chunks();
            if (chunks >= 0) {
                List<String> everywhere = List.copyOf(clouds.keySet());
                for (long i = 0; i < chunks; i++) {
                    deleteVersion(chunkPrefix + i, everywhere, cause);
                }
                return;
            }
            deleteListedChunks(objectKey, java.util.Set.of(), cause);
        }
    }

    /**
     * Deletes, in the background, every chunk of version {@code objectKey} that each cloud lists except those named
     * in {@code keep}: the leftovers of an upload in parts once it completes (parts left out, replaced attempts),
     * or all of them when it is abandoned.
     */
    void deleteChunksExcept(String objectKey, java.util.Set<String> keep) {
        deleteListedChunks(objectKey, keep, GcCause.UNREFERENCED);
    }

    private void deleteListedChunks(String objectKey, java.util.Set<String> keep, GcCause cause) {
        for (CloudStore cloud : clouds.values()) {
            submit(() -> {
                if (!deleteChunksOn(cloud, objectKey, keep, cause) && !keep.isEmpty()) {
                    leftovers.remember(objectKey, keep, cloud.id()); // the sweep keeps a current version's chunks
                }
            });
        }
    }

    /** Deletes the chunks of {@code objectKey} that {@code cloud} lists but {@code keep} does not name; all done? */
    private boolean deleteChunksOn(CloudStore cloud, String objectKey, java.util.Set<String> keep, GcCause cause) {
        boolean all = true;
        try {
            for (CloudObject o : list(cloud, objectKey + "#c")) {
                if (!keep.contains(o.key()) && ObjectKey.parseChunk(prefix, o.key())
                        .filter(v -> v.render(prefix).equals(objectKey)).isPresent()) {
                    all &= deleteNow(cloud, o.key(), cause);
                }
            }
            return all;
        } catch (RuntimeException e) {
            LOG.debug("could not list the chunks of {} on cloud {}: {}", objectKey, cloud.id(), e.toString());
            return false;
        }
    }

    /**
     * The names in {@code chunks} (chunks of version {@code objectKey}) that no cloud lists, on the calling thread;
     * clouds whose listing fails are left out, and if none answers, none is missing. Checked before an upload in
     * parts commits: a chunk no cloud holds was deleted by a sweep that took the upload for abandoned, whatever the
     * clocks of the clients that stamped its receipts said.
     */
    java.util.Set<String> unlisted(String objectKey, java.util.Set<String> chunks) {
        java.util.Set<String> missing = new java.util.HashSet<>(chunks);
        boolean answered = false;
        for (CloudStore cloud : clouds.values()) {
            try {
                list(cloud, objectKey + "#c").forEach(o -> missing.remove(o.key()));
                answered = true;
            } catch (RuntimeException e) {
                LOG.debug("could not list the chunks of {} on cloud {}: {}", objectKey, cloud.id(), e.toString());
            }
        }
        return answered ? missing : java.util.Set.of();
    }

    /** Tries again the clean-ups of completed uploads' leftover chunks that a cloud failed; how many succeeded. */
    private int retryLeftovers() {
        int done = 0;
        for (LeftoverChunks.Cleanup c : leftovers.pending()) {
            CloudStore cloud = clouds.get(c.cloudId());
            if (cloud == null || deleteChunksOn(cloud, c.objectKey(), c.keep(), GcCause.UNREFERENCED)) {
                leftovers.forget(c);
                done++;
            }
        }
        return done;
    }

    /** Deletes an unreferenced version from the given clouds, in the background (always: it was never visible). */
    void deleteVersion(String objectKey, List<String> cloudIds) {
        deleteVersion(objectKey, cloudIds, GcCause.UNREFERENCED);
    }

    /**
     * One background task per cloud, so a slow cloud delays no other; except that clouds whose calls are bounded
     * ({@link CloudStore#callTimeBound()}: in-memory ones) are deleted from on the calling thread, as their reads and
     * writes run there ({@link CloudCallPlacement}): their deletes take microseconds, and a background task cost more
     * than the deletes (a GC thread's wake-up per PUT: with 64 callers on 2 cores, ~13 µs of a GC thread's CPU and
     * ~8 % of the caller's per PUT; docs/benchmarks.md). Decorators that may hang or fail do not report a bound.
     */
    private void deleteVersion(String objectKey, List<String> cloudIds, GcCause cause) {
        for (String id : cloudIds) {
            CloudStore cloud = clouds.get(id);
            if (cloud == null) {
                continue;
            }
            if (placement.bounded(id)) {
                deleteNow(cloud, objectKey, cause);
            } else {
                submit(() -> deleteNow(cloud, objectKey, cause));
            }
        }
    }

    /**
     * Deletes, in the background, the copies on {@code cloudIds} that a write under a shared name (a completion's
     * manifest, stored again by a repeated completion) does not reference, each as {@link #deleteObject} does under
     * a shared name: kept where the key's metadata expects exactly these bytes, left to the sweep while the version
     * may still commit.
     */
    void deleteShared(String objectKey, List<String> cloudIds, byte[] landed) {
        for (String id : cloudIds) {
            CloudStore cloud = clouds.get(id);
            if (cloud != null) {
                deleteObject(cloud, objectKey, landed, true);
            }
        }
    }

    /**
     * Deletes, in the background, a copy that landed after its write's race had decided without it, unless the key's
     * metadata now expects exactly these bytes on that cloud: a repair or migration may have moved the version's copy
     * there meanwhile, under the same name, and the late upload is then that copy (or, erasure-coded, another
     * fragment: deleted, so a listing scrub finds it missing). Under a {@code sharedName}, a copy of a version that
     * may still commit (the key's metadata is older) is left to the sweep: a completion of an upload in parts tried
     * again stores its manifest under the same name, and deleting by name could take the retry's copy; any other
     * write's names are its own, and a late copy of a write that failed is deleted at once. A chunk is never moved
     * or stored again so: deleted at once. Metadata that cannot be read leaves the copy to the sweep.
     */
    void deleteObject(CloudStore cloud, String objectKey, byte[] landed, boolean sharedName) {
        submit(() -> {
            Optional<ObjectKey> version = ObjectKey.parse(prefix, objectKey);
            if (version.isPresent()) {
                ObjectKey ok = version.get();
                try {
                    Optional<Metadata> meta = readMetadata(new MetadataKey(ok.container(), ok.key()));
                    if (sharedName && (meta.isEmpty() || ok.timestamp().isAfter(meta.get().timestamp()))) {
                        return; // may still commit, under this very name (a completion of an upload in parts, tried
                        // again, stores its manifest again): deleting now could take the retry's copy; the sweep
                    }
                    if (meta.isPresent() && expects(meta.get(), ok, cloud.id(), landed)) {
                        return; // referenced: a repair moved the version's copy onto this cloud
                    }
                } catch (RuntimeException e) {
                    LOG.debug("could not read the metadata of {}; left for the sweep: {}", objectKey, e.toString());
                    return;
                }
                if (deleteNow(cloud, objectKey, GcCause.UNREFERENCED)) {
                    restoreIfMovedMeanwhile(cloud, ok, objectKey, landed);
                }
                return;
            }
            deleteNow(cloud, objectKey, GcCause.UNREFERENCED);
        });
    }

    /**
     * After a late copy was deleted: a repair may have stored the version's copy on that cloud, under the same name,
     * before the delete, and recorded the move after the metadata read that judged the late copy: the delete then
     * took the copy the metadata lists. Read again, the metadata tells; the copy is stored back if it expects exactly
     * these bytes there. (The repair checks its moved copies once the move is recorded, for a delete after this.)
     */
    private void restoreIfMovedMeanwhile(CloudStore cloud, ObjectKey ok, String objectKey, byte[] landed) {
        try {
            Optional<Metadata> meta = readMetadata(new MetadataKey(ok.container(), ok.key()));
            if (meta.isPresent() && expects(meta.get(), ok, cloud.id(), landed)) {
                cloud.put(objectKey, landed);
                LOG.info("a late copy of {} deleted from cloud {} was the copy a repair moved there meanwhile;"
                        + " stored again", objectKey, cloud.id());
            }
        } catch (RuntimeException e) {
            LOG.debug("could not check whether {} on cloud {} was moved there meanwhile: {}", objectKey, cloud.id(),
                    e.toString());
        }
    }

    /** Whether {@code meta} is version {@code ok} and expects the bytes {@code landed} on cloud {@code cloudId}. */
    private static boolean expects(Metadata meta, ObjectKey ok, String cloudId, byte[] landed) {
        int at = meta.clouds().indexOf(cloudId);
        if (at < 0 || !meta.timestamp().equals(ok.timestamp())) {
            return false;
        }
        byte[] expected = meta.erasure() == null ? meta.sha256() : meta.erasure().chunkHashes().get(at);
        return Hashing.matches(expected, Hashing.sha256(landed));
    }

    private void submit(Runnable r) {
        try {
            executor.execute(r);
        } catch (RejectedExecutionException e) {
            LOG.debug("GC executor shut down; object left for the sweep", e);
        }
    }

    /**
     * Whether chunk {@code name} of current version {@code ok} is one its manifest names. Only asked of a version
     * completed from parts (its metadata records no chunk size: its chunk names follow the receipts completed, and
     * attempts of a part left out stay behind when the completion's clean-up fails or never runs, as when its client
     * dies right after the commit): its manifest is read once per sweep from a cloud holding it, and taken only if it
     * matches the metadata hash. Anything else, or a manifest that cannot be read, names every chunk.
     */
    private boolean namedByManifest(ObjectKey ok, Metadata meta, String name,
                                    Map<ObjectKey, Optional<Set<String>>> manifests) {
        if (meta.chunked() == null || meta.chunked().chunks() >= 0 || meta.erasure() != null) {
            return true;
        }
        return manifests.computeIfAbsent(ok, v -> chunkNames(v, meta)).map(names -> names.contains(name))
                .orElse(true);
    }

    /** The chunk names the manifest of {@code ok} lists, read from one of its clouds; empty if none could be read. */
    private Optional<Set<String>> chunkNames(ObjectKey ok, Metadata meta) {
        String objectKey = ok.render(prefix);
        for (String id : meta.clouds()) {
            CloudStore cloud = clouds.get(id);
            if (cloud == null) {
                continue;
            }
            long t0 = System.nanoTime();
            Optional<byte[]> got;
            try {
                got = cloud.get(objectKey, meta.size());
            } catch (RuntimeException e) {
                report(cloud, CloudOperation.GET, objectKey, Outcome.ERROR, t0, e);
                LOG.debug("sweep could not read the manifest {} from cloud {}: {}", objectKey, id, e.toString());
                continue;
            }
            report(cloud, CloudOperation.GET, objectKey, Outcome.OK, t0, null);
            if (got.isPresent() && Hashing.matches(meta.sha256(), Hashing.sha256(got.get()))) {
                ChunkManifest m;
                try {
                    m = ChunkManifest.decode(got.get());
                } catch (MetadataFormatException e) { // a format a newer client wrote: its chunks are not ours to judge
                    LOG.debug("sweep keeps every chunk of {}: {}", objectKey, e.getMessage());
                    return Optional.empty();
                }
                Set<String> names = new java.util.HashSet<>();
                for (int i = 0; i < m.chunks().size(); i++) {
                    names.add(ok.renderChunk(prefix, m.nameIndex(i)));
                }
                return Optional.of(names);
            }
        }
        LOG.debug("sweep keeps every chunk of {}: no copy of its manifest could be read", objectKey);
        return Optional.empty();
    }

    /** The version an object name belongs to: its own, or that of the chunked value it is a chunk of. */
    private Optional<ObjectKey> versionOf(String name) {
        Optional<ObjectKey> v = ObjectKey.parse(prefix, name);
        return v.isPresent() ? v : ObjectKey.parseChunk(prefix, name);
    }

    private boolean deleteNow(CloudStore cloud, String objectKey, GcCause cause) {
        long t0 = System.nanoTime();
        try {
            cloud.delete(objectKey);
        } catch (RuntimeException e) {
            report(cloud, CloudOperation.DELETE, objectKey, Outcome.ERROR, t0, e);
            LOG.debug("could not delete {} from cloud {}; the sweep will retry: {}", objectKey, cloud.id(), e.toString());
            return false;
        }
        report(cloud, CloudOperation.DELETE, objectKey, Outcome.OK, t0, null);
        listener.garbageCollected(cloud.id(), objectKey, cause);
        return true;
    }

    /** Lists {@code listPrefix} on one cloud, reporting the request. */
    private List<CloudObject> list(CloudStore cloud, String listPrefix) {
        long t0 = System.nanoTime();
        try {
            List<CloudObject> objects = cloud.list(listPrefix);
            report(cloud, CloudOperation.LIST, listPrefix, Outcome.OK, t0, null);
            return objects;
        } catch (RuntimeException e) {
            report(cloud, CloudOperation.LIST, listPrefix, Outcome.ERROR, t0, e);
            throw e;
        }
    }

    private void report(CloudStore cloud, CloudOperation op, String objectKey, Outcome outcome, long t0,
                        Throwable failure) {
        listener.cloudRequest(new HybrisListener.CloudRequest(cloud.id(), op, objectKey, outcome,
                Duration.ofNanos(System.nanoTime() - t0), 0, failure));
    }

    /** The sweep's read of one key's metadata, straight from the store (not bounded by a call's deadline). */
    private Optional<Metadata> readMetadata(MetadataKey mk) {
        long t0 = System.nanoTime();
        try {
            Optional<Metadata> meta = metadata.read(mk).map(VersionedValue::value).map(MetadataCodec::decode);
            listener.metadataCall(MetadataOperation.READ, MetadataOutcome.OK, Duration.ofNanos(System.nanoTime() - t0));
            return meta;
        } catch (RuntimeException e) {
            listener.metadataCall(MetadataOperation.READ, e instanceof MetadataUnavailableException
                    ? MetadataOutcome.UNAVAILABLE : MetadataOutcome.ERROR, Duration.ofNanos(System.nanoTime() - t0));
            throw e;
        }
    }

    /**
     * Whether the versions {@code current} superseded are within {@code hybris.get.superseded-retention} (streams of
     * them may be under way): the newest piece of {@code current} on any cloud is younger than the retention. A
     * deletion leaves no piece to date it by: the versions it replaced are not retained.
     */
    private boolean retainedStill(MetadataKey mk, Metadata current, Map<ObjectKey, Duration> youngest) {
        if (retention.isZero() || current.isTombstone()) {
            return false;
        }
        Duration age = youngest.get(new ObjectKey(mk.container(), mk.key(), current.timestamp()));
        return age != null && age.compareTo(retention) < 0;
    }

    /** How old {@code object} is on its cloud's clock, reading {@code cloudNow}; zero if that is unknown (null). */
    private static Duration ageOn(CloudObject object, Instant cloudNow) {
        return cloudNow == null ? Duration.ZERO : Duration.between(object.lastModified(), cloudNow);
    }

    /** A cloud's listing under the prefix, and the time on the cloud's own clock when it was taken (null: unknown). */
    private record Listing(List<CloudObject> objects, Instant now) {
    }

    /**
     * Lists {@code cloud} under the prefix, dated by the cloud's own clock: the listed time of {@code marker}, an
     * empty object stored just before the listing (under the probe directory: no value can have its name) and
     * deleted after it (one left behind is a probe leftover, swept once older than the grace period). If the
     * marker could not be stored or was not listed, the date is unknown (null): nothing is old on that cloud then,
     * since no other clock can stand in for the cloud's. The listing returned leaves the marker out.
     */
    private Listing listDated(CloudStore cloud, String marker) {
        boolean marked = false;
        long t0 = System.nanoTime();
        try {
            cloud.put(marker, new byte[0]);
            report(cloud, CloudOperation.PUT, marker, Outcome.OK, t0, null);
            marked = true;
        } catch (RuntimeException e) {
            report(cloud, CloudOperation.PUT, marker, Outcome.ERROR, t0, e);
            LOG.warn("sweep could not store its clock marker on cloud {}, so it cannot tell the age of its objects"
                    + " and deletes only superseded versions there this time: {}", cloud.id(), e.toString());
        }
        try {
            List<CloudObject> objects = list(cloud, prefix);
            Instant now = objects.stream().filter(o -> o.key().equals(marker)).map(CloudObject::lastModified)
                    .findFirst().orElse(null);
            return new Listing(objects.stream().filter(o -> !o.key().equals(marker)).toList(), now);
        } finally {
            if (marked) {
                long t1 = System.nanoTime();
                try {
                    cloud.delete(marker);
                    report(cloud, CloudOperation.DELETE, marker, Outcome.OK, t1, null);
                } catch (RuntimeException e) {
                    report(cloud, CloudOperation.DELETE, marker, Outcome.ERROR, t1, e);
                    LOG.debug("sweep could not delete its clock marker {} from cloud {}: {}", marker, cloud.id(),
                            e.toString());
                }
            }
        }
    }

    /**
     * Lists every cloud under the prefix and deletes what no metadata references; runs on the calling thread. A
     * version's object and its chunks (a chunked value) are judged together: kept while the version is current
     * (but for chunks of a version completed from parts that its manifest does not name: {@link #namedByManifest}),
     * deleted once it is superseded, and otherwise (an upload that never committed) only when the newest of its
     * pieces on any cloud is older than the grace period, so an upload still adding chunks keeps them all. Latency
     * probe objects left behind ({@code .probe/}) are deleted once older than the grace period too. Ages are measured
     * on each cloud's own clock ({@link #listDated}): the writers bound their stalls on their monotonic clocks, so the
     * sweeping client's wall clock (skewed, or stepped forward) must not make an upload in progress look abandoned. A
     * version with a piece on a cloud whose clock could not be read is young (its age unknown).
     */
    SweepReport sweep(io.hybris.WorkProgress progress) {
        int retried = retryLeftovers();
        if (retried > 0) {
            LOG.info("orphan sweep: deleted the leftover chunks of {} completed uploads in parts", retried);
        }
        String marker = prefix + LatencyProber.DIRECTORY + "sweep-" + java.util.UUID.randomUUID();
        Map<CloudStore, Instant> nowOn = new HashMap<>();
        Map<MetadataKey, Optional<Metadata>> current = new HashMap<>();
        Map<ObjectKey, Optional<Set<String>>> manifests = new HashMap<>();
        int examined = 0;
        int referenced = 0;
        int young = 0;
        int deleted = 0;
        int failed = 0;
        Map<CloudStore, List<CloudObject>> listed = new LinkedHashMap<>();
        Map<ObjectKey, Duration> youngest = new HashMap<>();
        for (CloudStore cloud : clouds.values()) {
            try {
                Listing listing = listDated(cloud, marker);
                List<CloudObject> objects = listing.objects();
                Instant cloudNow = listing.now();
                listed.put(cloud, objects);
                nowOn.put(cloud, cloudNow);
                for (CloudObject object : objects) {
                    versionOf(object.key()).ifPresent(v -> youngest.merge(v, ageOn(object, cloudNow),
                            (a, b) -> a.compareTo(b) < 0 ? a : b));
                }
            } catch (RuntimeException e) {
                LOG.warn("sweep could not list cloud {}: {}", cloud.id(), e.toString());
                failed++;
            }
        }
        long total = listed.values().stream().mapToLong(List::size).sum();
        long done = 0;
        for (Map.Entry<CloudStore, List<CloudObject>> e : listed.entrySet()) {
            CloudStore cloud = e.getKey();
            Instant cloudNow = nowOn.get(cloud);
            for (CloudObject object : e.getValue()) {
                ProgressReports.report(progress, ++done, total);
                boolean chunk = false;
                Optional<ObjectKey> parsed = ObjectKey.parse(prefix, object.key());
                if (parsed.isEmpty()) {
                    parsed = ObjectKey.parseChunk(prefix, object.key());
                    chunk = true;
                }
                if (parsed.isEmpty()) {
                    if (object.key().startsWith(prefix + LatencyProber.DIRECTORY)) {
                        // a latency probe its client did not delete (the delete failed, or the client died
                        // mid-probe): a probe takes seconds, so one older than the grace period is left over
                        examined++;
                        if (ageOn(object, cloudNow).compareTo(grace) < 0) {
                            young++;
                        } else if (deleteNow(cloud, object.key(), GcCause.SWEEP)) {
                            deleted++;
                        } else {
                            failed++;
                        }
                    }
                    continue; // else under our prefix but not named by Hybris: not ours to judge
                }
                examined++;
                ObjectKey ok = parsed.get();
                MetadataKey mk = new MetadataKey(ok.container(), ok.key());
                Optional<Metadata> meta;
                try {
                    meta = current.computeIfAbsent(mk, this::readMetadata);
                } catch (RuntimeException ex) {
                    LOG.warn("sweep could not read metadata of {}; keeping its objects: {}", mk, ex.toString());
                    failed++;
                    continue;
                }
                boolean isCurrent = meta.isPresent() && meta.get().timestamp().equals(ok.timestamp());
                if (isCurrent && (chunk || meta.get().clouds().contains(cloud.id()))) {
                    if (!chunk || namedByManifest(ok, meta.get(), object.key(), manifests)) {
                        referenced++;
                    } else if (deleteNow(cloud, object.key(), GcCause.SWEEP)) {
                        deleted++; // a part attempt the completion left out, its clean-up failed or never ran
                    } else {
                        failed++;
                    }
                    continue;
                }
                boolean superseded = meta.isPresent() && meta.get().timestamp().isAfter(ok.timestamp());
                if (superseded && retainedStill(mk, meta.get(), youngest)) {
                    young++;
                    continue;
                }
                boolean oldEnough = youngest.getOrDefault(ok, ageOn(object, cloudNow)).compareTo(grace) >= 0;
                if (!superseded && !oldEnough) {
                    young++;
                    continue;
                }
                if (deleteNow(cloud, object.key(), GcCause.SWEEP)) {
                    deleted++;
                } else {
                    failed++;
                }
            }
        }
        SweepReport report = new SweepReport(examined, referenced, young, deleted, failed);
        LOG.info("orphan sweep: {}", report);
        return report;
    }
}
