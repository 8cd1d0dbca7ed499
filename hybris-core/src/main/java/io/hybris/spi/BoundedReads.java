/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads a stream into memory without ever reading more than a limit plus one byte, for {@link CloudStore}
 * implementations that receive a stream.
 */
public final class BoundedReads {
    private static final int CHUNK = 64 * 1024;
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private BoundedReads() {
    }

    /**
     * Reads {@code in} to its end if it holds at most {@code maxBytes} bytes.
     *
     * @throws OversizedObjectException after reading {@code maxBytes + 1} bytes, if there are more
     */
    public static byte[] readAtMost(InputStream in, long maxBytes, String cloudId, String objectKey)
            throws IOException {
        return readAtMost(in, maxBytes, cloudId, objectKey, (bytes, offset, length) -> { });
    }

    /**
     * Reads {@code in} to its end if it holds at most {@code maxBytes} bytes, passing every byte read to
     * {@code onBytes} as it arrives (for {@link CloudStore#get(String, long, ByteConsumer)}).
     *
     * @throws OversizedObjectException after reading {@code maxBytes + 1} bytes, if there are more
     */
    public static byte[] readAtMost(InputStream in, long maxBytes, String cloudId, String objectKey,
                                    ByteConsumer onBytes) throws IOException {
        return readAtMost(in, maxBytes, -1, cloudId, objectKey, onBytes);
    }

    /**
     * As {@link #readAtMost(InputStream, long, String, String, ByteConsumer)}, for a stream whose length the
     * server announced ({@code announcedSize}, e.g. from {@code Content-Length}; negative if unknown): an
     * announced size within the limit is read straight into an array of that size, without the copies of a
     * growing buffer. The announcement is not trusted: a stream that ends early gives the bytes it had, and
     * one that goes on is read on under the same limit.
     *
     * @throws OversizedObjectException after reading {@code maxBytes + 1} bytes, if there are more
     */
    public static byte[] readAtMost(InputStream in, long maxBytes, long announcedSize, String cloudId,
                                    String objectKey, ByteConsumer onBytes) throws IOException {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        if (announcedSize < 0 || announcedSize > maxBytes || announcedSize > MAX_ARRAY) {
            return readGrowing(in, maxBytes, cloudId, objectKey, onBytes, new byte[0], 0);
        }
        byte[] value = new byte[(int) announcedSize];
        int total = 0;
        while (total < value.length) {
            int n = in.read(value, total, Math.min(CHUNK, value.length - total));
            if (n < 0) {
                return Arrays.copyOf(value, total); // shorter than announced; the caller's checks decide
            }
            onBytes.accept(value, total, n);
            total += n;
        }
        int next = in.read();
        if (next < 0) {
            return value;
        }
        // longer than announced: go on reading, still bounded
        if ((long) total + 1 > maxBytes) {
            throw new OversizedObjectException(cloudId, objectKey, maxBytes);
        }
        byte[] one = {(byte) next};
        onBytes.accept(one, 0, 1);
        byte[] head = Arrays.copyOf(value, total + 1);
        head[total] = (byte) next;
        return readGrowing(in, maxBytes, cloudId, objectKey, onBytes, head, head.length);
    }

    /**
     * Reads the rest of {@code in} after the {@code already} bytes of {@code head}, under the limit, straight into
     * the array it returns: 64 KiB first, then four times as much each time it fills, up to the limit (Hybris reads
     * with the expected length as the limit, so an 8 MiB chunk fills a buffer of exactly its size after four
     * allocations, and is returned without a final copy; a looser limit costs at most four times the bytes read).
     */
    private static byte[] readGrowing(InputStream in, long maxBytes, String cloudId, String objectKey,
                                      ByteConsumer onBytes, byte[] head, long already) throws IOException {
        long cap = Math.min(maxBytes, MAX_ARRAY); // the largest array this read may fill
        byte[] buffer = Arrays.copyOf(head, (int) Math.max(already, Math.min(CHUNK, cap)));
        int total = (int) already;
        while (true) {
            if (total == buffer.length) {
                if (total >= cap) {
                    // full up to the limit: one more byte tells a value of exactly that size from a larger one
                    if (in.read() < 0) {
                        return buffer;
                    }
                    if (total >= maxBytes) {
                        throw new OversizedObjectException(cloudId, objectKey, maxBytes);
                    }
                    throw new IOException("object '" + objectKey + "' on cloud '" + cloudId + "' holds more than "
                            + MAX_ARRAY + " bytes, more than a Java array holds");
                }
                buffer = Arrays.copyOf(buffer, (int) Math.min(cap, Math.max((long) buffer.length * 4, CHUNK)));
            }
            int n = in.read(buffer, total, buffer.length - total);
            if (n < 0) {
                return total == buffer.length ? buffer : Arrays.copyOf(buffer, total);
            }
            onBytes.accept(buffer, total, n);
            total += n;
        }
    }
}
