/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The bytes of one version of a value (or of a {@link ByteRange} of it), as a stream, with the version they
 * belong to. Returned by {@link Hybris#getStream} and {@link Hybris#get(String, String, ByteRange)}; close it
 * when done (try-with-resources): closing stops the chunk downloads still running and releases their buffers.
 *
 * <pre>{@code
 * try (ValueStream in = hybris.getStream("videos", "talk.mp4").orElseThrow()) {
 *     System.out.println(in.version().version() + ", " + in.length() + " bytes");
 *     in.transferTo(out);
 * }
 * }</pre>
 *
 * <p>Every byte a stream returns has been checked against the hash in the version's metadata (through the chunk
 * manifest for a chunked value); all of them belong to {@link #version()}. A large value is read ahead a bounded
 * number of chunks ({@code hybris.chunk.read-ahead}), each from the fastest cloud holding it, falling back to the
 * other clouds chunk by chunk. Each chunk must arrive within {@code hybris.deadline} of being needed (the idle
 * timeout); the stream as a whole has no time limit while it makes progress. A failure is thrown as
 * {@link ValueStreamException}, whose cause is the {@link HybrisException} a call would have thrown; once a read
 * failed, every later one throws that failure again. Read a stream from one thread at a time; {@link #close()} may
 * come from any thread: a read waiting for a chunk then fails at once with {@code IOException("stream closed")},
 * and the downloads still running are cancelled.
 */
public final class ValueStream extends InputStream {
    private final VersionInfo version;
    private final long first;
    private final long length;
    private final InputStream bytes;
    private final UnaryOperator<RuntimeException> surfaced;
    private volatile boolean closed;

    /**
     * A stream over {@code bytes}, which hold {@code length} bytes of {@code version} from offset {@code first}.
     * Hybris creates these; {@code surfaced} turns an internal failure into the exception a call would throw.
     */
    ValueStream(VersionInfo version, long first, long length, InputStream bytes,
                UnaryOperator<RuntimeException> surfaced) {
        this.version = Objects.requireNonNull(version, "version");
        this.first = first;
        this.length = length;
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.surfaced = surfaced;
    }

    /** The version these bytes belong to (its {@link VersionInfo#size()} is the whole value's length). */
    public VersionInfo version() {
        return version;
    }

    /** The offset in the value of this stream's first byte (0 unless a range was asked for). */
    public long first() {
        return first;
    }

    /** How many bytes this stream yields in all (the range's length, or the whole value's). */
    public long length() {
        return length;
    }

    @Override
    public int read() throws IOException {
        ensureOpen();
        try {
            return bytes.read();
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        java.util.Objects.checkFromIndexSize(off, len, b.length); // the caller's mistake, as InputStream says
        try {
            return bytes.read(b, off, len);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public long skip(long n) throws IOException {
        ensureOpen();
        try {
            return bytes.skip(n);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        return bytes.available();
    }

    /** Stops the downloads still running and releases their buffers. Idempotent. */
    @Override
    public void close() throws IOException {
        closed = true;
        bytes.close();
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
    }

    private IOException failed(RuntimeException e) {
        if (closed) {
            return new IOException("stream closed"); // by another thread while this read waited
        }
        RuntimeException s = surfaced.apply(e);
        HybrisException h = s instanceof HybrisException he ? he : new HybrisException(s.toString(), s);
        return new ValueStreamException("reading " + length + " bytes of version " + version.version()
                + " failed: " + h.getMessage(), h);
    }

    @Override
    public String toString() {
        return "ValueStream[" + version.version() + ", bytes " + first + "-" + (first + length - 1) + "]";
    }
}
