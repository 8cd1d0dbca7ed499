/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import io.hybris.spi.ByteConsumer;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Collects a download in memory and refuses (with an {@link IOException} that aborts the download) the first byte
 * past {@code maxBytes}, so a server that ignores the requested range still cannot make the client hold more than
 * {@code maxBytes + 1} bytes. Used by one download at a time; not thread-safe beyond the SDK's sequential writes.
 */
final class BoundedSink extends OutputStream {
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
    private final long maxBytes;
    private final ByteConsumer onBytes;
    private byte[] buffer;
    private int size;
    private volatile boolean overflowed;

    /** A sink that also passes every byte it keeps to {@code onBytes}, in order. */
    BoundedSink(long maxBytes, ByteConsumer onBytes) {
        this.maxBytes = maxBytes;
        this.onBytes = onBytes;
        this.buffer = new byte[(int) Math.max(0, Math.min(maxBytes, 64 * 1024))];
    }

    /** True once more than {@code maxBytes} bytes were offered. */
    boolean overflowed() {
        return overflowed;
    }

    /** The bytes collected: the buffer itself when they fill it exactly, else a copy of exactly that length. */
    byte[] toByteArray() {
        return size == buffer.length ? buffer : Arrays.copyOf(buffer, size);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (len <= 0) {
            return;
        }
        if ((long) size + len > maxBytes) {
            overflowed = true;
            throw new IOException("download exceeds the " + maxBytes + "-byte limit; aborted");
        }
        if ((long) size + len > MAX_ARRAY) {
            throw new IOException("download exceeds " + MAX_ARRAY + " bytes, more than a Java array holds; aborted");
        }
        int needed = size + len;
        if (needed > buffer.length) {
            // four times as much each time, up to the limit: Hybris reads with the expected length as the limit, so
            // an 8 MiB chunk ends in a buffer of exactly its size after four allocations, returned without a copy
            long grown = Math.max(needed, Math.min((long) buffer.length * 4, maxBytes));
            buffer = Arrays.copyOf(buffer, (int) Math.min(grown, MAX_ARRAY));
        }
        System.arraycopy(b, off, buffer, size, len);
        size = needed;
        onBytes.accept(b, off, len);
    }
}
