package io.hybris.spi;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a stream into memory without ever reading more than a limit plus one byte, for {@link CloudStore}
 * implementations that receive a stream.
 */
public final class BoundedReads {
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
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        long limit = maxBytes == Long.MAX_VALUE ? Long.MAX_VALUE : maxBytes + 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.max(32, Math.min(limit, 1 << 16)));
        byte[] buffer = new byte[(int) Math.max(1, Math.min(64 * 1024, limit))];
        long total = 0;
        while (true) {
            int want = (int) Math.min(buffer.length, limit - total);
            int n = in.read(buffer, 0, want);
            if (n < 0) {
                return out.toByteArray();
            }
            total += n;
            if (total > maxBytes) {
                throw new OversizedObjectException(cloudId, objectKey, maxBytes);
            }
            onBytes.accept(buffer, 0, n);
            out.write(buffer, 0, n);
        }
    }
}
