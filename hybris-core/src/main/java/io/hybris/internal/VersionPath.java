/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.HybrisException;
import io.hybris.spi.MetadataKey;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The protocol's own read and write paths for version bytes: a write stores the version by its {@link Layout}
 * under its object name and commits its metadata ({@link Commits}); a read asks the version's layout. Thread-safe.
 */
final class VersionPath implements WritePath, ReadPath {
    /** Values at least this large are hashed on an I/O thread while their uploads run. */
    private static final int HASH_IN_PARALLEL_FROM = 256 << 10;

    private final Layouts layouts;
    private final ChunkedWriter chunks;
    private final Commits commits;
    private final GarbageCollector gc;
    private final String prefix;
    private final ExecutorService io;
    /** Runs the uploads of a transaction's keys in parallel. */
    private final ExecutorService transactionUploads;
    /** Where a chunked version's manifest is kept once stored, for this client's next reads of it. */
    private final ManifestCache manifests;
    private final Sealer sealer;

    VersionPath(Layouts layouts, ChunkedWriter chunks, Commits commits, GarbageCollector gc, String prefix,
                ExecutorService io, ExecutorService transactionUploads, ManifestCache manifests, Sealer sealer) {
        this.sealer = sealer;
        this.layouts = layouts;
        this.chunks = chunks;
        this.commits = commits;
        this.gc = gc;
        this.prefix = prefix;
        this.io = io;
        this.transactionUploads = transactionUploads;
        this.manifests = manifests;
    }

    @Override
    public byte[] read(MetadataKey key, Current current, Deadline d, List<Throwable> failures) {
        Metadata meta = current.meta();
        return layouts.forRead(meta).read(objectKey(key, meta.timestamp()), meta, d, failures);
    }

    @Override
    public Metadata write(NewVersion v, Deadline d) {
        if (v.isTombstone()) {
            return commits.commit(v.key(), Metadata.tombstone(v.timestamp()), v.replaced(), d, null, v.required());
        }
        String objectKey = objectKey(v.key(), v.timestamp());
        Metadata meta = store(v, objectKey, d);
        // a chunked upload takes as long as its stream: the commit gets a deadline of its own
        // a value uploaded in parts: its chunks and its manifest's name are the upload's, not this completion's own
        boolean shared = v.chunked() != null && v.chunked().prestored() != null;
        Metadata committed = commits.commit(v.key(), meta, v.replaced(),
                v.chunked() != null ? Deadline.after(d.budget()) : d, objectKey, v.required(), shared);
        return committed != null ? committed : meta;
    }

    @Override
    public Map<String, Metadata> writeAll(String container, List<NewVersion> versions, Deadline d) {
        Map<String, Metadata> written = new LinkedHashMap<>();
        Map<String, String> objectKeys = new LinkedHashMap<>();
        Map<String, Current> read = new LinkedHashMap<>();
        Map<String, Preconditions> required = new LinkedHashMap<>();
        List<Future<Metadata>> futures = new ArrayList<>();
        for (NewVersion v : versions) {
            String objectKey = objectKey(v.key(), v.timestamp());
            objectKeys.put(v.key().key(), objectKey);
            read.put(v.key().key(), v.replaced());
            if (v.required() != null) {
                required.put(v.key().key(), v.required());
            }
            futures.add(transactionUploads.submit(() -> store(v, objectKey, d)));
        }
        RuntimeException failure = null;
        for (int i = 0; i < versions.size(); i++) {
            try {
                written.put(versions.get(i).key().key(), futures.get(i).get());
            } catch (ExecutionException ex) {
                failure = failure != null ? failure : ex.getCause() instanceof RuntimeException r ? r
                        : new HybrisException("tput upload failed", ex.getCause());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                failure = new CallInterruptedException("tput of " + versions.size() + " keys in " + container
                        + " interrupted before its metadata update; nothing was committed", false, ex);
                break;
            }
        }
        if (failure != null) {
            futures.forEach(fut -> fut.cancel(true)); // uploads still running end up as orphans for the sweep
            written.forEach((k, m) -> gc.deleteWritten(objectKeys.get(k), m));
            throw failure;
        }
        boolean chunked = versions.stream().anyMatch(v -> v.chunked() != null);
        commits.commitAll(container, written, read, objectKeys, required, chunked ? Deadline.after(d.budget()) : d);
        return written;
    }

    /** Stores one version by its layout (or in chunks) and returns its metadata (not yet committed). */
    private Metadata store(NewVersion v, String objectKey, Deadline d) {
        if (v.chunked() != null) {
            ChunkedWriter.Stored s = v.chunked().prestored() != null ? v.chunked().prestored()
                    : chunks.store(new ObjectKey(v.key().container(), v.key().key(), v.timestamp()),
                            v.chunked().source());
            v.chunked().stored(s.manifest());
            // a read of the version this client just wrote (read-your-writes) then needs no manifest request; an
            // entry of a version that never commits is never asked for (names are unique per write) and ages out
            manifests.put(objectKey, s.manifest());
            return new Metadata(v.timestamp(), s.placement().clouds(), Hashing.sha256(s.manifest()),
                    s.manifest().length, underCurrentKek(s.encryption(), v.key()), v.cacheCounter(), null,
                    new Metadata.Chunked(s.valueLength(), s.chunkSize()), v.userMetadata());
        }
        byte[] data = v.sealed().stored();
        // the hash is needed only for the metadata: for large values compute it while the uploads run
        CompletableFuture<byte[]> hash = data.length >= HASH_IN_PARALLEL_FROM
                ? CompletableFuture.supplyAsync(() -> Hashing.sha256(data), io)
                : CompletableFuture.completedFuture(Hashing.sha256(data));
        try {
            Layout.Placement placed = layouts.forWrite(v.key().container(), data.length).store(objectKey, data, d);
            return new Metadata(v.timestamp(), placed.clouds(), hash.join(), data.length,
                    underCurrentKek(v.sealed().encryption(), v.key()),
                    v.cacheCounter(), placed.erasure(), null, v.userMetadata());
        } catch (RuntimeException e) {
            hash.cancel(false);
            throw e;
        }
    }

    /**
     * The custody record {@code e} (null: plaintext) re-wrapped under the key provider's current KEK if that changed
     * since the version was sealed (its upload or stream ran meanwhile): a KEK rotation that ran before this commit
     * could not reach it, as for an upload in parts; a client without the old KEK fails the write
     * ({@code KeyUnavailableException}) rather than commit what it could not read.
     */
    private Metadata.Encryption underCurrentKek(Metadata.Encryption e, MetadataKey key) {
        Metadata.Encryption rewrapped = sealer.rewrap(e, key.toString());
        return rewrapped != null ? rewrapped : e;
    }

    private String objectKey(MetadataKey key, Timestamp ts) {
        return new ObjectKey(key.container(), key.key(), ts).render(prefix);
    }
}
