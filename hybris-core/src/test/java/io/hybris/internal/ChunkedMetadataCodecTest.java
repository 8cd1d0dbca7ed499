/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The metadata entry of a chunked value (extension tag 5): round trips, rejections, and its size. */
class ChunkedMetadataCodecTest {
    private static final int MIB8 = 8 << 20;
    private static final List<String> CLOUDS = List.of("c0", "c1");

    private static byte[] hash(int seed) {
        byte[] h = new byte[Metadata.HASH_BYTES];
        new Random(seed).nextBytes(h);
        return h;
    }

    private static Metadata chunked(long manifestSize, long valueLength) {
        return new Metadata(new Timestamp(1, "k3m7q2xa"), CLOUDS, hash(9), manifestSize, null, 0, null,
                new Metadata.Chunked(valueLength, 8 << 20));
    }

    /** The encoded manifest of a value of {@code length} bytes in 8 MiB chunks, each on two of three clouds. */
    private static byte[] manifest(long length) {
        int n = (int) ChunkManifest.chunkCount(length, MIB8);
        List<ChunkManifest.Chunk> chunks = new ArrayList<>(n);
        byte[] h = hash(1);
        for (int i = 0; i < n; i++) {
            chunks.add(new ChunkManifest.Chunk(Math.min(MIB8, length - (long) i * MIB8), h,
                    List.of("c" + (i % 3), "c" + ((i + 1) % 3)), null));
        }
        return new ChunkManifest(MIB8, length, chunks).encode();
    }

    @Test
    void aChunkedEntryRoundTripsWithAndWithoutEncryption() {
        Metadata plain = chunked(4242, 5L << 40);
        Metadata encrypted = plain.withEncryption(new Metadata.Encryption("kek-1", hash(3)));

        assertThat(MetadataCodec.decode(MetadataCodec.encode(plain))).isEqualTo(plain);
        Metadata back = MetadataCodec.decode(MetadataCodec.encode(encrypted));
        assertThat(back).isEqualTo(encrypted);
        assertThat(back.isChunked()).isTrue();
        assertThat(back.chunked().valueLength()).isEqualTo(5L << 40);
        assertThat(back.encryption().keyId()).isEqualTo("kek-1");
        assertThat(MetadataCodec.decode(MetadataCodec.encode(chunked(7, 0))).chunked().valueLength()).isZero();
    }

    @Test
    void aWholeValueHasNoChunkedExtension() {
        Metadata whole = new Metadata(new Timestamp(1, "k3m7q2xa"), CLOUDS, hash(9), 1024);

        assertThat(MetadataCodec.decode(MetadataCodec.encode(whole)).isChunked()).isFalse();
        assertThat(MetadataCodec.encode(chunked(1024, 1L << 24)))
                .hasSize(MetadataCodec.encode(whole).length + 1 + 1 + 4 + 4); // tag, body length, 4-byte varints 2^24, 2^23
    }

    /**
     * The entry does not grow with the value: only two varints do (the manifest's size and the value's length),
     * so a 1 TiB value's entry is 5 bytes longer than a 16 MiB value's (not equal: varints), and the largest
     * value allowed (5 TiB) takes 64 bytes.
     */
    @Test
    void theEntryOfAOneTebibyteValueIsFiveBytesLongerThanThatOfASixteenMebibyteOne() {
        byte[] small = manifest(16L << 20);
        byte[] huge = manifest(1L << 40);
        assertThat(small).hasSize(100); // 1 + 4 + 4 + 10 (cloud table) + 1 + 2 * 40
        assertThat(huge).hasSize(5_242_904); // 1 + 4 + 6 + 10 + 3 + 131072 * 40

        byte[] sixteenMib = MetadataCodec.encode(chunked(small.length, 16L << 20));
        byte[] oneTib = MetadataCodec.encode(chunked(huge.length, 1L << 40));

        // version 1 + sn 1 + client id 6 + cloud count 1 + size varint + hash 32 + clouds 6 + tag 1 + length 1
        // + value-length varint + chunk-size varint (8 MiB: 4 bytes): 16 MiB -> size 1 byte (100), length 4 bytes;
        // 1 TiB -> size 4 bytes, length 6 bytes
        assertThat(sixteenMib).hasSize(58);
        assertThat(oneTib).hasSize(63);
        long maxManifest = 1 + 4 + 7 + 10 + 3 + (5L << 17) * 40;
        assertThat(MetadataCodec.encode(chunked(maxManifest, 5L << 40))).hasSize(64);
    }

    @Test
    void aChunkedErasureCodedEntryAndARepeatedTagAreRejected() {
        Metadata erasure = new Metadata(new Timestamp(1, "k3m7q2xa"), List.of("c0", "c1", "c2"), hash(9), 1024,
                null, 0, new Metadata.Erasure(2, List.of(hash(1), hash(2), hash(3))));
        byte[] withTag = concat(MetadataCodec.encode(erasure), new byte[] {5, 1, 1});
        assertThatThrownBy(() -> MetadataCodec.decode(withTag)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("cannot be erasure-coded");

        byte[] twice = concat(MetadataCodec.encode(chunked(10, 10)), new byte[] {5, 1, 1});
        assertThatThrownBy(() -> MetadataCodec.decode(twice)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("repeated metadata extension 5");

        assertThatThrownBy(() -> new Metadata(new Timestamp(1, "a"), List.of("c0", "c1", "c2"), hash(9), 10, null,
                0, erasure.erasure(), new Metadata.Chunked(10))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyTruncationOfAChunkedEntryIsRejectedAndTrailingBytesToo() {
        byte[] full = MetadataCodec.encode(chunked(4242, 1L << 40));
        int extension = full.length - 12; // tag, body length, 6-byte and 4-byte varints
        // cut exactly before the extension, the entry is a whole value's: extensions are optional by design (the
        // metadata store is trusted not to truncate entries)
        assertThat(MetadataCodec.decode(Arrays.copyOf(full, extension)).isChunked()).isFalse();
        for (int len = 1; len < full.length; len++) {
            if (len == extension) {
                continue;
            }
            byte[] cut = Arrays.copyOf(full, len);
            assertThatThrownBy(() -> MetadataCodec.decode(cut)).as("first %d bytes", len)
                    .isInstanceOf(MetadataFormatException.class);
        }
        // a chunked body with a byte after its two varints
        byte[] body = concat(Arrays.copyOf(full, extension), new byte[] {5, 3, 1, 1, 0});
        assertThatThrownBy(() -> MetadataCodec.decode(body)).isInstanceOf(MetadataFormatException.class);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
