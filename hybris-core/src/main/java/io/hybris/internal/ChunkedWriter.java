/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisException;
import io.hybris.ValueTooLargeException;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Stores a large value as chunks (docs/streaming.md): cuts the {@link ValueSource} into chunks of
 * {@code hybris.chunk.size}, seals each under the version's data key, stores each by the container's
 * {@link Layout} (replicated on {@code f+1} clouds or erasure-coded, each chunk its own write race with timers and
 * secondaries) with at most {@code hybris.chunk.parallel-uploads} chunks in flight, then stores the
 * {@link ChunkManifest} replicated under the version's own name. Memory: at most {@code parallel + 1} chunks (twice
 * that while a chunk is being encrypted). On failure it deletes every chunk stored (uploads still running delete
 * themselves) and throws; it never commits. Thread-safe; each call keeps its state on its own stack.
 */
final class ChunkedWriter {
    /**
     * What a chunked upload stored: the manifest and where it went, the version's data-key record, the value's
     * length and its chunk size (0: uploaded in parts, each chunk sized in the manifest).
     */
    record Stored(byte[] manifest, Layout.Placement placement, Metadata.Encryption encryption, long valueLength,
                  int chunkSize) {
    }

    /** What a balanced chunk size is a multiple of (unless it is the configured maximum). */
    static final int ALIGNMENT = 4 << 10;

    private final Layouts layouts;
    private final Sealer sealer;
    private final GarbageCollector gc;
    private final ExecutorService io;
    private final String prefix;
    private final int chunkSize;
    private final int parallel;
    private final Duration perChunk;
    private final Duration grace;

    /**
     * @param perChunk how long one chunk's (and the manifest's) upload may take ({@code hybris.deadline})
     * @param grace    the sweep's grace period: an upload that stalls this long between two stored pieces fails
     *                 instead of committing chunks the sweep may have taken for abandoned
     */
    ChunkedWriter(Layouts layouts, Sealer sealer, GarbageCollector gc, ExecutorService io, String prefix,
                  int chunkSize, int parallel, Duration perChunk, Duration grace) {
        this.layouts = layouts;
        this.sealer = sealer;
        this.gc = gc;
        this.io = io;
        this.prefix = prefix;
        this.chunkSize = chunkSize;
        this.parallel = parallel;
        this.perChunk = perChunk;
        this.grace = grace;
    }

    int chunkSize() {
        return chunkSize;
    }

    /** Uploads every chunk of {@code source} and the manifest of version {@code version}; does not commit. */
    Stored store(ObjectKey version, ValueSource source) {
        Sealer.VersionKey key = sealer.newVersionKey();
        try {
            int size = balancedChunkSize(source.declared(), chunkSize);
            if (ChunkManifest.chunkCount(source.declared(), size) > ChunkManifest.MAX_CHUNKS) {
                throw tooManyChunks(version, Long.toString(source.declared()), size);
            }
            StoredChunks stored = storeChunks(version, source, size, j -> j, key == null ? null : key.dataKey(),
                    false);
            ChunkManifest manifest = new ChunkManifest(size, stored.length(), stored.chunks());
            try {
                return storeManifest(version, manifest, key == null ? null : key.encryption(), stored.storedAt(),
                        false);
            } catch (RuntimeException e) {
                for (int i = 0; i < stored.chunks().size(); i++) {
                    gc.deleteVersion(version.renderChunk(prefix, i), stored.chunks().get(i).clouds());
                }
                throw e;
            }
        } finally {
            if (key != null) {
                key.destroy();
            }
        }
    }

    /**
     * The chunk size for a value of {@code length} bytes ({@link ValueSource#UNKNOWN_LENGTH}: {@code max}): as many
     * chunks as chunks of {@code max} would take, of nearly equal size (a multiple of {@link #ALIGNMENT}, at most
     * {@code max}), so that a value just above a multiple of {@code max} is not read as full chunks and a small
     * last one: its chunks, read in parallel, each carry about the same share (10 MiB in chunks of 8 MiB: 5 and 5
     * MiB, not 8 and 2). The manifest and the metadata record the size chosen, so readers need nothing else.
     */
    static int balancedChunkSize(long length, int max) {
        if (length <= max) {
            return max; // unknown length, or one chunk at most
        }
        long chunks = ChunkManifest.chunkCount(length, max);
        long even = (length + chunks - 1) / chunks;
        long aligned = (even + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        return (int) Math.min(max, aligned);
    }

    /**
     * Stores the manifest of {@code version} (whose chunks are stored) under the version's own name, unless the
     * upload stalled for half the sweep's grace period between two of the times in {@code storedAt} (when its
     * pieces became durable, {@link System#nanoTime}), so that the sweep cannot have taken any piece for
     * abandoned. On failure the manifest is deleted; the chunks are the caller's. {@code sharedName}: another
     * attempt may store a manifest under the same name (an upload in parts, completed again).
     */
    Stored storeManifest(ObjectKey version, ChunkManifest manifest, Metadata.Encryption encryption,
                         List<Long> storedAt, boolean sharedName) {
        String what = "'" + version.key() + "' in " + version.container();
        byte[] encoded = manifest.encode();
        Layout.Placement placed = layouts.replicated().store(version.render(prefix), encoded, Deadline.after(perChunk),
                sharedName);
        List<Long> times = new ArrayList<>(storedAt);
        times.add(System.nanoTime());
        long stalled = longestGap(times);
        if (stalled >= halfGraceNanos(grace) && !grace.isZero()) {
            gc.deleteVersion(version.render(prefix), placed.clouds());
            throw new HybrisException("upload of " + what + " stalled for " + Duration.ofNanos(stalled)
                    + " between two chunks, more than half of hybris.gc.grace=" + grace + "; the orphan sweep"
                    + " may have taken its chunks for abandoned, so it was not committed: supply the stream"
                    + " faster or raise hybris.gc.grace");
        }
        return new Stored(encoded, placed, encryption, manifest.valueLength(), manifest.chunkSize());
    }

    /**
     * Half of the sweep's grace period in nanoseconds, the longest stall an upload may take: saturated, as a grace
     * of more than 292 years ("never", in practice) does not fit in a long.
     */
    static long halfGraceNanos(Duration grace) {
        return grace.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE / 2 : grace.toNanos() / 2;
    }

    /**
     * The chunks one call stored: in value order, how many value bytes, and when each became durable
     * ({@link System#nanoTime}).
     */
    record StoredChunks(List<ChunkManifest.Chunk> chunks, long length, List<Long> storedAt) {
    }

    /**
     * Uploads every chunk of {@code source} as chunks of {@code version}, {@code size} value bytes each (the last
     * one the rest): the j-th under name index {@code nameOf(j)}, sealed under {@code dataKey} (null: plaintext).
     * With {@code sparse}, each chunk records its name index and length (manifest format 2). On failure every
     * chunk stored is deleted and it throws.
     */
    StoredChunks storeChunks(ObjectKey version, ValueSource source, int size,
                             java.util.function.LongUnaryOperator nameOf, byte[] dataKey, boolean sparse) {
        String what = "'" + version.key() + "' in " + version.container();
        List<ChunkManifest.Chunk> chunks = new ArrayList<>();
        ArrayDeque<Upload> inFlight = new ArrayDeque<>();
        List<Long> storedAt = new ArrayList<>();
        long length = 0;
        try {
            for (int j = 0; ; j++) {
                byte[] plain = source.read(size);
                if (plain.length == 0) {
                    break;
                }
                if (j >= ChunkManifest.MAX_CHUNKS) {
                    throw tooManyChunks(version, "at least " + (length + plain.length), size);
                }
                length += plain.length;
                while (inFlight.size() >= parallel) {
                    add(await(inFlight.peek(), what), chunks, storedAt);
                    inFlight.poll(); // only once collected: a failed wait leaves it for the clean-up below
                }
                inFlight.add(submit(version, nameOf.applyAsLong(j), plain, dataKey, sparse));
                if (plain.length < size) {
                    break;
                }
            }
            while (!inFlight.isEmpty()) {
                add(await(inFlight.peek(), what), chunks, storedAt);
                inFlight.poll();
            }
            return new StoredChunks(chunks, length, storedAt);
        } catch (RuntimeException | Error e) { // an Error too: the caller's stream may throw one (an assertion)
            // an upload still running deletes what it stored once it finishes (or is cancelled); one that already
            // finished but was not collected yet is deleted here
            inFlight.forEach(u -> {
                Done done = u.stored().getAndSet(ABANDONED);
                if (done != null && done != ABANDONED) {
                    gc.deleteVersion(version.renderChunk(prefix, u.index()), done.chunk().clouds());
                }
                u.future().cancel(true);
            });
            for (int j = 0; j < chunks.size(); j++) {
                gc.deleteVersion(version.renderChunk(prefix, nameOf.applyAsLong(j)), chunks.get(j).clouds());
            }
            throw e;
        }
    }

    /** The failure of a value of {@code length} bytes that needs more chunks of {@code size} than a manifest lists. */
    private ValueTooLargeException tooManyChunks(ObjectKey version, String length, int size) {
        return new ValueTooLargeException("the value of '" + version.key() + "' in " + version.container() + " is "
                + length + " bytes, more than " + ChunkManifest.MAX_CHUNKS + " chunks of " + size + " bytes"
                + " (hybris.chunk.size=" + chunkSize + "), the most one manifest lists; raise hybris.chunk.size (up"
                + " to 512MiB) or split the value", ChunkManifest.MAX_CHUNKS * size);
    }

    /** A stored chunk and when it became durable. */
    private record Done(ChunkManifest.Chunk chunk, long storedAt) {
    }

    /** What {@link Upload#stored} holds once the put failed: an upload finishing after that deletes its chunk. */
    private static final Done ABANDONED = new Done(null, 0);

    /**
     * A chunk upload in flight: its future, and its result handed over exactly once, either to the put (which then
     * owns the chunk) or, if the put failed first, back to the upload, which deletes it.
     */
    private record Upload(long index, Future<Done> future, AtomicReference<Done> stored) {
    }

    private static void add(Done done, List<ChunkManifest.Chunk> chunks, List<Long> storedAt) {
        chunks.add(done.chunk());
        storedAt.add(done.storedAt());
    }

    /** The longest time between two pieces of the upload becoming durable (the sweep judges a version by its newest). */
    static long longestGap(List<Long> storedAt) {
        List<Long> sorted = new ArrayList<>(storedAt);
        sorted.sort(null);
        long longest = 0;
        for (int i = 1; i < sorted.size(); i++) {
            longest = Math.max(longest, sorted.get(i) - sorted.get(i - 1));
        }
        return longest;
    }

    private Upload submit(ObjectKey version, long index, byte[] plain, byte[] dataKey, boolean sparse) {
        byte[][] holder = {plain}; // dropped once sealed, so an encrypted chunk is not held twice while uploading
        int bytes = plain.length;
        AtomicReference<Done> handed = new AtomicReference<>();
        try {
            return new Upload(index, io.submit(() -> {
                byte[] sealed = sealer.sealChunk(dataKey, holder[0]);
                holder[0] = null;
                byte[] hash = Hashing.sha256(sealed);
                Layout.Placement placed = layouts.forWrite(version.container(), sealed.length)
                        .store(version.renderChunk(prefix, index), sealed, Deadline.after(perChunk));
                ChunkManifest.Chunk chunk = new ChunkManifest.Chunk(sealed.length, hash, placed.clouds(),
                        placed.erasure());
                Done done = new Done(sparse ? chunk.at(index, bytes) : chunk, System.nanoTime());
                if (!handed.compareAndSet(null, done)) { // the put failed meanwhile: nobody will reference it
                    gc.deleteVersion(version.renderChunk(prefix, index), placed.clouds());
                }
                return done;
            }), handed);
        } catch (RejectedExecutionException e) {
            throw new HybrisException("the client's I/O threads are shut down (client closing)", e);
        }
    }

    private Done await(Upload upload, String what) {
        try {
            // each chunk's own deadline ends its upload; the margin only guards against a lost completion
            Done done = upload.future().get(perChunk.toNanos() + TimeUnit.SECONDS.toNanos(5), TimeUnit.NANOSECONDS);
            upload.stored().set(ABANDONED); // collected: the put owns the chunk now
            return done;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("put of " + what + " interrupted before its metadata update; nothing"
                    + " was committed", false, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new HybrisException("chunk upload of " + what + " failed: " + cause, cause);
        } catch (TimeoutException e) {
            throw new DeadlineExceededException("a chunk of " + what + " was not stored within " + perChunk
                    + "; nothing was committed");
        }
    }
}
