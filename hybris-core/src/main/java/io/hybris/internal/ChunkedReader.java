/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.ClientClosedException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisException;

import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Reads a range of a chunked value (docs/streaming.md) as a stream: fetches only the chunks covering the range,
 * at most {@code readAhead} ahead of the reader, each from the fastest cloud holding it through its
 * {@link Layout} (hash-checked against the manifest, other clouds tried chunk by chunk), falling back to the
 * worst-case read for a chunk no listed cloud could provide. For a stream, the first chunk is fetched alone and the
 * read-ahead starts once it has arrived, so the first byte costs one chunk read, not a share of {@code readAhead}
 * parallel ones; a value read whole into memory fetches {@code readAhead} chunks at once. A chunk whose read started
 * alongside the manifest's ({@link ChunkSpeculation}) is fetched by finishing that read. Each chunk must arrive
 * within the idle timeout of being requested. Closing cancels the fetches still running. Used by one reader thread;
 * closable from any thread.
 */
final class ChunkedReader extends InputStream {
    /** Reads one chunk the common-case read could not: the worst case, which fails if the version is gone. */
    interface Fallback {
        byte[] read(String chunkName, Metadata chunk, Deadline d, List<Throwable> failures);
    }

    private final ChunkManifest manifest;
    private final ObjectKey version;
    private final String prefix;
    private final Layouts layouts;
    private final Fallback fallback;
    private final byte[] dataKey;
    private final ExecutorService io;
    private final Duration idle;
    private final int readAhead;
    private final Consumer<ChunkedReader> onClose;
    private final ArrayDeque<Future<byte[]>> ahead = new ArrayDeque<>();
    /** Reads of chunks started with the manifest's ({@link ChunkSpeculation}), by index, until a fetch takes one. */
    private final Map<Integer, PendingRead> started;
    private int nextToFetch;
    private final int lastChunk;
    private byte[] current;
    private int pos;
    private long remaining;
    private volatile String closedBecause;
    /** The failure that ended the stream (later reads throw it again), or null. */
    private volatile RuntimeException failedWith;
    /** The fetch a reader is waiting for, taken off {@link #ahead}: closing cancels it too. Guarded by ahead. */
    private Future<byte[]> waitedFor;

    /**
     * @param first   offset of the first value byte to return
     * @param length  number of bytes to return
     * @param dataKey the version's data key (null if plaintext); zeroed on close
     * @param onClose called once when the stream closes
     * @param whole   whether the caller reads the range whole into memory (a {@code byte[]} GET): then the first
     *                {@code readAhead} chunks are fetched at once, as the time to first byte does not matter
     * @param started reads of chunks started before the manifest was known, their hashes resolved, by index: the
     *                fetch of such a chunk finishes that read instead of starting one; this reader owns them
     */
    ChunkedReader(ChunkManifest manifest, ObjectKey version, String prefix, Layouts layouts, Fallback fallback,
                  byte[] dataKey, ExecutorService io, Duration idle, int readAhead, long first, long length,
                  Consumer<ChunkedReader> onClose, boolean whole, Map<Integer, PendingRead> started) {
        this.manifest = manifest;
        this.version = version;
        this.prefix = prefix;
        this.layouts = layouts;
        this.fallback = fallback;
        this.dataKey = dataKey;
        this.io = io;
        this.idle = idle;
        this.readAhead = readAhead;
        this.onClose = onClose;
        this.remaining = length;
        this.started = new ConcurrentHashMap<>(started);
        this.nextToFetch = length == 0 ? 0 : manifest.chunkAt(first);
        this.lastChunk = length == 0 ? -1 : manifest.chunkAt(first + length - 1);
        this.pos = length == 0 ? 0 : (int) (first - manifest.offsetOf(nextToFetch));
        // a stream: the first chunk alone, so the time to first byte is one chunk read; next() starts the read-ahead
        try {
            fill(whole ? readAhead : 1);
        } catch (RuntimeException e) {
            release(); // the fetches submitted and the reads started early end with it
            throw e;
        }
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        if (remaining == 0) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        byte[] chunk = current; // a close from another thread clears the field: this read keeps its chunk
        if (chunk == null || pos == chunk.length) {
            int skip = chunk == null ? pos : 0;
            chunk = next();
            current = chunk;
            pos = skip;
        }
        int n = (int) Math.min(Math.min(len, chunk.length - pos), remaining);
        System.arraycopy(chunk, pos, b, off, n);
        pos += n;
        remaining -= n;
        if (remaining == 0) {
            release();
        }
        return n;
    }

    @Override
    public long skip(long n) {
        checkOpen();
        long skipped = 0;
        while (n > skipped && remaining > 0) {
            byte[] chunk = current;
            if (chunk == null || pos == chunk.length) {
                int skip = chunk == null ? pos : 0;
                chunk = next();
                current = chunk;
                pos = skip;
            }
            int step = (int) Math.min(Math.min(n - skipped, chunk.length - pos), remaining);
            pos += step;
            remaining -= step;
            skipped += step;
        }
        return skipped;
    }

    @Override
    public int available() {
        byte[] chunk = current;
        return chunk == null || remaining == 0 ? 0 : (int) Math.max(0, Math.min(chunk.length - pos, remaining));
    }

    /** Cancels the fetches still running and releases the buffers. Idempotent. */
    @Override
    public void close() {
        closeBecause("the stream is closed");
    }

    /** Closes the stream so that a reader blocked in it (and any later read) fails with {@code reason}. */
    void closeBecause(String reason) {
        synchronized (ahead) {
            if (closedBecause != null) {
                return;
            }
            closedBecause = reason;
            release();
        }
        onClose.accept(this);
    }

    private void release() {
        synchronized (ahead) {
            ahead.forEach(f -> f.cancel(true));
            ahead.clear();
            if (waitedFor != null) {
                waitedFor.cancel(true); // wakes a reader blocked on it, from whichever thread closes
                waitedFor = null;
            }
            for (Integer index : List.copyOf(started.keySet())) {
                PendingRead read = started.remove(index); // null: a fetch took it, and ends it
                if (read != null) {
                    read.abandon();
                }
            }
            current = null;
            if (dataKey != null) {
                Arrays.fill(dataKey, (byte) 0);
            }
        }
    }

    private void checkOpen() {
        RuntimeException failure = failedWith;
        if (failure != null) {
            throw failure; // the read that failed ended the stream: every later one says why
        }
        String why = closedBecause;
        if (why != null) {
            throw why.startsWith("the client") ? new ClientClosedException(why) : new IllegalStateException(why);
        }
    }

    /**
     * The next chunk's value bytes, waiting for its fetch; keeps {@code readAhead} fetches running. A close from
     * another thread cancels the fetch waited for, so the wait ends at once, and no chunk is returned after it.
     */
    private byte[] next() {
        Future<byte[]> fetch;
        synchronized (ahead) {
            checkOpen();
            fetch = ahead.poll();
            waitedFor = fetch;
        }
        if (fetch == null) {
            throw new IllegalStateException("no chunk left to read");
        }
        try {
            byte[] chunk = fetch.get(idle.toNanos() + TimeUnit.SECONDS.toNanos(5), TimeUnit.NANOSECONDS);
            synchronized (ahead) {
                waitedFor = null;
                checkOpen(); // closed while the chunk arrived: nothing is returned after a close
            }
            fill();
            return chunk;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw fail(new CallInterruptedException("read of " + what() + " interrupted", false, e));
        } catch (CancellationException e) {
            checkOpen();
            throw new ClientClosedException("a chunk fetch of " + what() + " was cancelled");
        } catch (ExecutionException e) {
            throw fail(e.getCause() instanceof RuntimeException r ? r
                    : new HybrisException("reading a chunk of " + what() + " failed: " + e.getCause(), e.getCause()));
        } catch (TimeoutException e) {
            throw fail(new DeadlineExceededException("no chunk of " + what() + " arrived within " + idle
                    + " (hybris.deadline, the stream's idle timeout)"));
        }
    }

    /** Ends the stream with {@code failure}, which every later read throws again; returns it. */
    private RuntimeException fail(RuntimeException failure) {
        synchronized (ahead) {
            if (closedBecause == null) {
                failedWith = failure;
            }
        }
        close();
        return failure;
    }

    private void fill() {
        fill(readAhead);
    }

    private void fill(int depth) {
        synchronized (ahead) {
            while (closedBecause == null && ahead.size() < depth && nextToFetch <= lastChunk) {
                int index = nextToFetch++;
                try {
                    ahead.add(io.submit(() -> fetch(index)));
                } catch (RejectedExecutionException e) {
                    throw new ClientClosedException("the client's I/O threads are shut down (client closed)");
                }
            }
        }
    }

    /** One chunk's value bytes, verified and opened. Runs on an I/O thread. */
    private byte[] fetch(int index) {
        ChunkManifest.Chunk chunk = manifest.chunks().get(index);
        Metadata asVersion = chunk.asVersion(version.timestamp());
        String name = version.renderChunk(prefix, manifest.nameIndex(index));
        Deadline d = Deadline.after(idle);
        List<Throwable> failures = new ArrayList<>();
        PendingRead early = started.remove(index);
        byte[] stored = early != null ? layouts.replicated().finishRead(early, d, failures)
                : layouts.forRead(asVersion).read(name, asVersion, d, failures);
        if (stored == null) {
            stored = fallback.read(name, asVersion, d, failures);
        }
        byte[] plain = Sealer.openChunk(dataKey, stored);
        if (plain.length != manifest.valueBytesIn(index)) {
            throw new HybrisException("chunk " + index + " of " + what() + " holds " + plain.length + " bytes, its"
                    + " manifest says " + manifest.valueBytesIn(index));
        }
        return plain;
    }

    private String what() {
        return "'" + version.key() + "' in " + version.container() + " (version " + version.timestamp() + ")";
    }
}
