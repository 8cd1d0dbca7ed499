package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisException;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

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
    /** What a chunked upload stored: the manifest and where it went, and the version's data-key record. */
    record Stored(byte[] manifest, Layout.Placement placement, Metadata.Encryption encryption, long valueLength) {
    }

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
        String what = "'" + version.key() + "' in " + version.container();
        Sealer.VersionKey key = sealer.newVersionKey();
        byte[] dataKey = key == null ? null : key.dataKey();
        List<ChunkManifest.Chunk> chunks = new ArrayList<>();
        ArrayDeque<Future<Done>> inFlight = new ArrayDeque<>();
        List<Long> storedAt = new ArrayList<>();
        AtomicBoolean abandoned = new AtomicBoolean();
        long length = 0;
        try {
            for (int index = 0; ; index++) {
                byte[] plain = source.read(chunkSize);
                if (plain.length == 0) {
                    break;
                }
                length += plain.length;
                while (inFlight.size() >= parallel) {
                    add(await(inFlight.poll(), what), chunks, storedAt);
                }
                inFlight.add(submit(version, index, plain, dataKey, abandoned));
                if (plain.length < chunkSize) {
                    break;
                }
            }
            while (!inFlight.isEmpty()) {
                add(await(inFlight.poll(), what), chunks, storedAt);
            }
            ChunkManifest manifest = new ChunkManifest(chunkSize, length, chunks);
            byte[] encoded = manifest.encode();
            Layout.Placement placed = layouts.replicated().store(version.render(prefix), encoded,
                    Deadline.after(perChunk));
            storedAt.add(System.nanoTime());
            long stalled = longestGap(storedAt);
            if (stalled >= grace.toNanos() / 2 && !grace.isZero()) {
                gc.deleteVersion(version.render(prefix), placed.clouds());
                throw new HybrisException("upload of " + what + " stalled for " + Duration.ofNanos(stalled)
                        + " between two chunks, more than half of hybris.gc.grace=" + grace + "; the orphan sweep"
                        + " may have taken its chunks for abandoned, so it was not committed: supply the stream"
                        + " faster or raise hybris.gc.grace");
            }
            return new Stored(encoded, placed, key == null ? null : key.encryption(), length);
        } catch (RuntimeException e) {
            abandoned.set(true); // an upload still running deletes its chunk once stored
            for (Future<Done> f : inFlight) {
                if (!f.cancel(true) && f.isDone()) {
                    try {
                        chunks.add(f.get().chunk()); // finished before the cancel: delete it below
                    } catch (ExecutionException | InterruptedException | CancellationException ignored) {
                        // failed: its upload deleted what it stored
                    }
                } else {
                    chunks.add(null);
                }
            }
            for (int i = 0; i < chunks.size(); i++) {
                if (chunks.get(i) != null) {
                    gc.deleteVersion(version.renderChunk(prefix, i), chunks.get(i).clouds());
                }
            }
            throw e;
        } finally {
            if (key != null) {
                key.destroy();
            }
        }
    }

    /** A stored chunk and when it became durable. */
    private record Done(ChunkManifest.Chunk chunk, long storedAt) {
    }

    private static void add(Done done, List<ChunkManifest.Chunk> chunks, List<Long> storedAt) {
        chunks.add(done.chunk());
        storedAt.add(done.storedAt());
    }

    /** The longest time between two pieces of the upload becoming durable (the sweep judges a version by its newest). */
    private static long longestGap(List<Long> storedAt) {
        List<Long> sorted = new ArrayList<>(storedAt);
        sorted.sort(null);
        long longest = 0;
        for (int i = 1; i < sorted.size(); i++) {
            longest = Math.max(longest, sorted.get(i) - sorted.get(i - 1));
        }
        return longest;
    }

    private Future<Done> submit(ObjectKey version, int index, byte[] plain, byte[] dataKey,
                                AtomicBoolean abandoned) {
        byte[][] holder = {plain}; // dropped once sealed, so an encrypted chunk is not held twice while uploading
        try {
            return io.submit(() -> {
                byte[] stored = sealer.sealChunk(dataKey, holder[0]);
                holder[0] = null;
                byte[] hash = Hashing.sha256(stored);
                String name = version.renderChunk(prefix, index);
                Layout.Placement placed = layouts.forWrite(version.container(), stored.length)
                        .store(name, stored, Deadline.after(perChunk));
                if (abandoned.get()) {
                    gc.deleteVersion(name, placed.clouds());
                    throw new CallInterruptedException("upload abandoned", false, null);
                }
                return new Done(new ChunkManifest.Chunk(stored.length, hash, placed.clouds(), placed.erasure()),
                        System.nanoTime());
            });
        } catch (RejectedExecutionException e) {
            throw new HybrisException("the client's I/O threads are shut down (client closing)", e);
        }
    }

    private Done await(Future<Done> upload, String what) {
        try {
            // each chunk's own deadline ends its upload; the margin only guards against a lost completion
            return upload.get(perChunk.toNanos() + TimeUnit.SECONDS.toNanos(5), TimeUnit.NANOSECONDS);
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
