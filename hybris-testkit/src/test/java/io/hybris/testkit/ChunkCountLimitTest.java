/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.ValueSourceException;
import io.hybris.ValueTooLargeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A value whose manifest would list more than 2^23 chunks (here, in chunks of 64 KiB, more than 512 GiB, well below
 * the default 5 TiB hybris.value.max-size) is refused before a chunk is uploaded when its length is declared,
 * naming hybris.chunk.size: before, its chunks were all uploaded and its manifest could not be held (5 TiB in 64 KiB
 * chunks is 84 million chunks, a manifest larger than an array). Nothing is stored: the streams end after the
 * bytes that decide between a whole and a chunked value.
 */
class ChunkCountLimitTest {
    private static final long MOST_CHUNKS = 1L << 23;
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    /** A stream holding {@code n} zero bytes, then failing. */
    private static InputStream failingAfter(int n) {
        return new InputStream() {
            private int left = n;

            @Override
            public int read() throws IOException {
                if (left == 0) {
                    throw new IOException("source gone");
                }
                left--;
                return 0;
            }
        };
    }

    private long putsOf(String key) {
        return fx.recorded.stream().flatMap(r -> r.calls().stream())
                .filter(c -> c.op() == RecordingCloudStore.Op.PUT && c.objectKey().contains("/" + key + "#")).count();
    }

    @Test
    void aDeclaredValueOfMoreChunksThanAManifestListsIsRefusedUpFront() {
        Hybris h = fx.open();
        long most = MOST_CHUNKS * CHUNK;
        assertThatThrownBy(() -> h.put(C, "over", failingAfter(CHUNK + 1), most + 1))
                .isInstanceOfSatisfying(ValueTooLargeException.class, e -> assertThat(e.limit()).isEqualTo(most))
                .hasMessageContaining("is " + (most + 1) + " bytes, more than 8388608 chunks of 65536 bytes")
                .hasMessageContaining("raise hybris.chunk.size");
        assertThat(putsOf("over")).isZero();
        assertThatThrownBy(() -> h.put(C, "at", failingAfter(CHUNK + 1), most))
                .isInstanceOf(ValueSourceException.class).hasMessageContaining("source gone");
        assertThat(h.get(C, "over")).isEmpty();
        assertThat(h.get(C, "at")).isEmpty();
    }
}
