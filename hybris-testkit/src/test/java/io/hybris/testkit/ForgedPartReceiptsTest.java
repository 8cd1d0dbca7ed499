/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.UploadedPart;
import io.hybris.VersionInfo;
import io.hybris.ValueStream;
import io.hybris.ValueStreamException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Part receipts are the caller's to keep (the S3 gateway stores them), so their bytes may be altered or carry times
 * no single test run can produce. A receipt that claims its chunk holds one byte fewer than was uploaded (the hash
 * still matches the stored chunk) must not make a read return a value of shifted or truncated bytes: the reader
 * checks each chunk's length against the manifest and fails instead (docs/streaming.md: "a receipt cannot make a
 * value read other bytes than were uploaded"). And the idle rule of a completion measures gaps against the newest
 * chunk stored so far by any part, not by the part that started last: a short part uploaded while a long one ran
 * does not make the upload look idle.
 */
class ForgedPartReceiptsTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    /** Unsigned LEB128, as the receipt and manifest encode their varints; returns {value, bytes used}. */
    private static long[] varintAt(byte[] b, int at) {
        long v = 0;
        int i = 0;
        while (true) {
            int x = b[at + i] & 0xff;
            v |= (long) (x & 0x7f) << (7 * i);
            i++;
            if ((x & 0x80) == 0) {
                return new long[] {v, i};
            }
        }
    }

    private static void overwriteVarint(byte[] b, int at, int width, long v) {
        for (int i = 0; i < width; i++) {
            b[at + i] = (byte) ((v & 0x7f) | (i < width - 1 ? 0x80 : 0));
            v >>>= 7;
        }
        if (v != 0) {
            throw new IllegalArgumentException("does not fit");
        }
    }

    /**
     * The receipt of a one-chunk part with its value length and its chunk's value bytes both lowered by one
     * (receipt: format, version, part, first, last; then the format-2 manifest: format, chunk size 0, value length,
     * cloud table, chunk count, then the chunk's name index and value bytes).
     */
    private static byte[] shortenedByOne(byte[] receipt) {
        byte[] b = receipt.clone();
        int at = 1;
        at += 1 + (b[at] & 0xff); // version
        for (int i = 0; i < 3; i++) {
            at += (int) varintAt(b, at)[1]; // part, first, last
        }
        assertThat(b[at]).as("manifest format 2").isEqualTo((byte) 2);
        at += 1;
        at += (int) varintAt(b, at)[1]; // chunk size 0
        long[] length = varintAt(b, at);
        overwriteVarint(b, at, (int) length[1], length[0] - 1);
        at += (int) length[1];
        int clouds = b[at++] & 0xff;
        for (int i = 0; i < clouds; i++) {
            at += 1 + (b[at] & 0xff);
        }
        long[] n = varintAt(b, at);
        assertThat(n[0]).as("one chunk").isEqualTo(1);
        at += (int) n[1];
        at += (int) varintAt(b, at)[1]; // name index
        long[] bytes = varintAt(b, at);
        assertThat(bytes[0]).isEqualTo(length[0]);
        overwriteVarint(b, at, (int) bytes[1], bytes[0] - 1);
        return b;
    }

    @Test
    void aReceiptUnderstatingItsChunkFailsTheReadInsteadOfShiftingTheValue() throws Exception {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        byte[] p1 = value(3000, 1);
        byte[] p2 = value(2000, 2);
        PartUpload up = parts.start(C, "forged");
        UploadedPart r1 = parts.upload(up, 1, new ByteArrayInputStream(p1), p1.length);
        UploadedPart r2 = parts.upload(up, 2, new ByteArrayInputStream(p2), p2.length);
        UploadedPart forged = UploadedPart.fromBytes(shortenedByOne(r1.toBytes()));
        assertThat(forged.size()).isEqualTo(2999);

        parts.complete(up, List.of(forged, r2), null);

        Hybris reader = fx.open(b -> b.clientId("r1"));
        for (Hybris client : List.of(h, reader)) {
            assertThatThrownBy(() -> client.get(C, "forged"))
                    .hasMessageContaining("holds 3000 bytes, its manifest says 2999");
            try (ValueStream s = client.getStream(C, "forged").orElseThrow()) {
                assertThat(s.length()).isEqualTo(4999);
                assertThatThrownBy(s::readAllBytes).isInstanceOf(ValueStreamException.class)
                        .hasMessageContaining("holds 3000 bytes, its manifest says 2999");
            }
        }
    }

    /** The receipt with its part's first and last durable times (epoch milliseconds) replaced. */
    private static byte[] withTimes(byte[] receipt, long first, long last) {
        int at = 1;
        at += 1 + (receipt[at] & 0xff); // version
        at += (int) varintAt(receipt, at)[1]; // part
        int times = at;
        at += (int) varintAt(receipt, at)[1];
        at += (int) varintAt(receipt, at)[1];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(receipt, 0, times);
        for (long v : new long[] {first, last}) {
            while ((v & ~0x7fL) != 0) {
                out.write((int) ((v & 0x7f) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }
        out.write(receipt, at, receipt.length - at);
        return out.toByteArray();
    }

    /**
     * Part 1 streamed for 39 minutes (its chunks stored from 40 to 1 minute ago), part 2 was uploaded meanwhile
     * (35 to 34 minutes ago): the upload never stored nothing for 30 minutes (half of a one-hour grace), so it
     * completes. Measuring from part 2's last chunk (34 minutes ago) instead of the newest one so far (part 1's, a
     * minute ago) would fail it with UploadExpiredException.
     */
    @Test
    void aShortPartUploadedDuringALongOneDoesNotMakeTheUploadLookIdle() throws Exception {
        Hybris h = fx.open(b -> b.gcGrace(Duration.ofHours(1)));
        PartUploads parts = PartUploads.of(h);
        byte[] p1 = value(3000, 1);
        byte[] p2 = value(2000, 2);
        PartUpload up = parts.start(C, "overlap");
        UploadedPart r1 = parts.upload(up, 1, new ByteArrayInputStream(p1), p1.length);
        UploadedPart r2 = parts.upload(up, 2, new ByteArrayInputStream(p2), p2.length);
        long now = System.currentTimeMillis();
        long minute = 60_000;
        UploadedPart long1 = UploadedPart.fromBytes(withTimes(r1.toBytes(), now - 40 * minute, now - minute));
        UploadedPart short2 = UploadedPart.fromBytes(withTimes(r2.toBytes(), now - 35 * minute, now - 34 * minute));

        VersionInfo done = parts.complete(up, List.of(long1, short2), null);

        assertThat(done.size()).isEqualTo(5000);
        byte[] expected = new byte[5000];
        System.arraycopy(p1, 0, expected, 0, 3000);
        System.arraycopy(p2, 0, expected, 3000, 2000);
        assertThat(fx.open(b -> b.clientId("r1")).get(C, "overlap").orElseThrow()).isEqualTo(expected);
    }
}
