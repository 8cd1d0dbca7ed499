/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.BoundedReads;
import io.hybris.spi.CloudStore;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.TransientCloudException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cloud that answers reads with more bytes than it stores (the "big file" attack of the paper's §4.4):
 * while active, {@link #get} streams the stored bytes followed by {@code extraBytes} garbage bytes. The reply
 * is produced lazily and read through {@link BoundedReads#readAtMost}, exactly as a real store reads a
 * network stream, so the {@code maxBytes} contract holds: a read that asks for at most the stored size fails
 * with {@link OversizedObjectException} after {@code maxBytes + 1} bytes, however large the reply.
 * {@link #bytesServed()} shows how much of the reply was actually consumed.
 *
 * <p>Thread-safe; deterministic (the garbage is a fixed pattern).
 *
 * <pre>{@code
 * OversizedCloudStore big = OversizedCloudStore.of(new InMemoryCloudStore("c1"), 100L << 20);
 * big.put("k", new byte[1024]);
 * big.get("k", 1024);   // throws OversizedObjectException
 * big.bytesServed();    // 1025
 * }</pre>
 */
public final class OversizedCloudStore extends FaultInjectingCloudStore {
    /** The largest array the JVM reliably allocates; no reply longer than this can be returned anyway. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    private final long extraBytes;
    private final AtomicLong served = new AtomicLong();

    private OversizedCloudStore(CloudStore delegate, long extraBytes) {
        super(delegate);
        this.extraBytes = extraBytes;
    }

    /**
     * A view of {@code delegate} that appends {@code extraBytes} garbage bytes to every object it serves.
     *
     * @throws IllegalArgumentException if {@code extraBytes} is negative
     */
    public static OversizedCloudStore of(CloudStore delegate, long extraBytes) {
        Objects.requireNonNull(delegate, "delegate must not be null");
        if (extraBytes < 0) {
            throw new IllegalArgumentException("extraBytes must be >= 0, got " + extraBytes);
        }
        return new OversizedCloudStore(delegate, extraBytes);
    }

    /** The garbage bytes appended to every object. */
    public long extraBytes() {
        return extraBytes;
    }

    /** Bytes handed out of oversized replies since creation or {@link #resetCounters()}, over all reads. */
    public long bytesServed() {
        return served.get();
    }

    /** Sets {@link #bytesServed()} back to zero. */
    public void resetCounters() {
        served.set(0);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        Optional<byte[]> stored = delegate().get(objectKey, maxBytes);
        if (!isActive() || stored.isEmpty()) {
            return stored;
        }
        InputStream reply = new CountingStream(new SequenceInputStream(
                new ByteArrayInputStream(stored.get()), new GarbageStream(extraBytes)), served);
        // No reply longer than an array can be returned, so a larger limit is the same as this one; capping it
        // also keeps maxBytes + 1 from overflowing inside the bounded read.
        long limit = Math.min(maxBytes, MAX_ARRAY);
        try {
            return Optional.of(BoundedReads.readAtMost(reply, limit, id(), objectKey));
        } catch (OversizedObjectException e) {
            if (limit == maxBytes) {
                throw e;
            }
            throw new OversizedObjectException(id(), objectKey, maxBytes);
        } catch (IOException e) {
            throw new TransientCloudException(id(), "get of '" + objectKey + "' failed: " + e, e);
        }
    }

    /** {@code remaining} bytes of a fixed pattern, produced on demand. */
    private static final class GarbageStream extends InputStream {
        private long remaining;

        GarbageStream(long length) {
            this.remaining = length;
        }

        @Override
        public int read() {
            if (remaining <= 0) {
                return -1;
            }
            remaining--;
            return pattern(remaining);
        }

        @Override
        public int read(byte[] b, int off, int len) {
            Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (remaining <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, remaining);
            for (int i = 0; i < n; i++) {
                remaining--;
                b[off + i] = (byte) pattern(remaining);
            }
            return n;
        }

        private static int pattern(long position) {
            return (int) ((position * 31 + 0xA5) & 0xff);
        }
    }

    /** Counts the bytes read through it into a shared counter. */
    private static final class CountingStream extends InputStream {
        private final InputStream in;
        private final AtomicLong counter;

        CountingStream(InputStream in, AtomicLong counter) {
            this.in = in;
            this.counter = counter;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                counter.incrementAndGet();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                counter.addAndGet(n);
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
