/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.InvalidRequestException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.ValueSourceException;
import io.hybris.ValueTooLargeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Uploads in parts at their limits, without storing the bytes: part numbers 1 and 10,000 (and 0, 10,001), and a
 * part of exactly 2^21 chunks (the most a part's chunk names hold) against one byte more, declared up front.
 */
class PartLimitsTest {
    /** The most chunks one part can have. */
    private static final long CHUNKS_PER_PART = 1L << 21;
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    /** A stream whose first read fails: what a part of a length that passed the checks then meets. */
    private static InputStream failing() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("source gone");
            }
        };
    }

    @Test
    void partNumbersOneAndTenThousandAreTheRange() throws IOException {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "edges");
        byte[] first = value(CHUNK + 1, 1);
        byte[] last = value(3, 2);
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(first), first.length);
        UploadedPart p10000 = parts.upload(upload, 10_000, new ByteArrayInputStream(last), -1);
        for (int bad : new int[] {0, 10_001, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            assertThatThrownBy(() -> parts.upload(upload, bad, new ByteArrayInputStream(last), 3))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("use 1 to 10000");
        }
        parts.complete(upload, List.of(p1, p10000), PutOptions.none());
        byte[] all = h.get(C, "edges").orElseThrow();
        assertThat(all).hasSize(first.length + last.length);
        assertThat(java.util.Arrays.copyOfRange(all, first.length, all.length)).isEqualTo(last);
    }

    /**
     * A part of exactly 2^21 chunks is accepted (here its stream fails at once); one byte more is refused before a
     * byte is read, naming the per-part limit — not {@code hybris.value.max-size}, which the part is far below.
     */
    @Test
    void aPartOfTwoToTheTwentyOneChunksAndOneByteMore() {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "big");
        long most = CHUNKS_PER_PART * CHUNK;
        assertThatThrownBy(() -> parts.upload(upload, 1, failing(), most))
                .isInstanceOf(ValueSourceException.class).hasMessageContaining("source gone");
        assertThatThrownBy(() -> parts.upload(upload, 2, failing(), most + 1))
                .isInstanceOfSatisfying(ValueTooLargeException.class, e -> assertThat(e.limit()).isEqualTo(most))
                .hasMessageContaining((most + 1) + " bytes")
                .hasMessageContaining("2097152 chunks of hybris.chunk.size=" + CHUNK)
                .hasMessageNotContaining("hybris.value.max-size");
    }

    /** Below the per-part limit, hybris.value.max-size is the limit a part meets, and is named. */
    @Test
    void aPartAboveTheValueLimitNamesIt() {
        Hybris h = fx.open(b -> b.maxValueSize(1000));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "small");
        assertThatThrownBy(() -> parts.upload(upload, 1, failing(), 1001))
                .isInstanceOfSatisfying(ValueTooLargeException.class, e -> assertThat(e.limit()).isEqualTo(1000))
                .hasMessageContaining("hybris.value.max-size=1000");
        assertThatThrownBy(() -> parts.upload(upload, 1, new ByteArrayInputStream(value(1001, 3)), -1))
                .isInstanceOfSatisfying(ValueTooLargeException.class, e -> assertThat(e.limit()).isEqualTo(1000))
                .hasMessageContaining("hybris.value.max-size=1000");
    }

    /**
     * Parts of exactly one and two chunks, an empty last part, and reads of the value at the parts' edges: ranges
     * ending on a part's last byte and starting on the next one's first, the value's last byte, and a skip of
     * {@code Long.MAX_VALUE}.
     */
    @Test
    void partsInWholeChunksAnEmptyLastPartAndReadsAtTheirEdges() throws IOException {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "edges2");
        byte[] p1 = value(CHUNK, 5);
        byte[] p2 = value(2 * CHUNK, 6);
        UploadedPart u1 = parts.upload(upload, 1, new ByteArrayInputStream(p1), -1);
        UploadedPart u2 = parts.upload(upload, 2, new ByteArrayInputStream(p2), p2.length);
        UploadedPart u3 = parts.upload(upload, 3, new ByteArrayInputStream(new byte[0]), 0);
        assertThat(u3.size()).isZero();
        assertThat(parts.complete(upload, List.of(u1, u2, u3), PutOptions.none()).size())
                .isEqualTo(3L * CHUNK);
        byte[] all = new byte[3 * CHUNK];
        System.arraycopy(p1, 0, all, 0, CHUNK);
        System.arraycopy(p2, 0, all, CHUNK, 2 * CHUNK);
        assertThat(h.get(C, "edges2").orElseThrow()).isEqualTo(all);
        long[][] ranges = {{CHUNK - 1, CHUNK - 1}, {CHUNK, CHUNK}, {CHUNK - 1, CHUNK}, {2L * CHUNK, 3L * CHUNK - 1},
            {3L * CHUNK - 1, Long.MAX_VALUE}, {0, Long.MAX_VALUE}};
        for (long[] r : ranges) {
            try (io.hybris.ValueStream s = h.get(C, "edges2", io.hybris.ByteRange.of(r[0], r[1])).orElseThrow()) {
                int last = (int) Math.min(r[1], all.length - 1);
                assertThat(s.readAllBytes()).as("range %d-%d", r[0], r[1])
                        .isEqualTo(java.util.Arrays.copyOfRange(all, (int) r[0], last + 1));
            }
        }
        try (io.hybris.ValueStream s = h.get(C, "edges2", io.hybris.ByteRange.from(CHUNK + 1)).orElseThrow()) {
            assertThat(s.read()).isEqualTo(all[CHUNK + 1] & 0xff);
            assertThat(s.skip(Long.MAX_VALUE)).isEqualTo(2L * CHUNK - 2);
            assertThat(s.read()).isEqualTo(-1);
            assertThat(s.skip(Long.MAX_VALUE)).isZero();
        }
        assertThatThrownBy(() -> h.get(C, "edges2", io.hybris.ByteRange.from(3L * CHUNK)))
                .isInstanceOf(io.hybris.InvalidRangeException.class).hasMessageContaining("196608 bytes");
    }
}
