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

/** The erasure-coding extension (tag 4) of the metadata codec: round trips, pinned sizes, malformed input. */
class ErasureMetadataCodecTest {

    private static byte[] hash(int seed) {
        byte[] h = new byte[Metadata.HASH_BYTES];
        new Random(seed).nextBytes(h);
        return h;
    }

    private static Metadata coded(int k, String... clouds) {
        List<byte[]> hashes = new ArrayList<>();
        for (int i = 0; i < clouds.length; i++) {
            hashes.add(hash(100 + i));
        }
        return new Metadata(new Timestamp(1, "k3m7q2xa"), List.of(clouds), hash(9), 1024, null, 0,
                new Metadata.Erasure(k, hashes));
    }

    @Test
    void erasureCodedMetadataRoundTripsWithChunkOrder() {
        Metadata m = coded(2, "c3", "c1", "c2");
        Metadata back = MetadataCodec.decode(MetadataCodec.encode(m));
        assertThat(back).isEqualTo(m);
        assertThat(back.clouds()).containsExactly("c3", "c1", "c2");
        assertThat(back.erasure().dataChunks()).isEqualTo(2);
        assertThat(back.erasure().chunkHashes().get(2)).isEqualTo(hash(102));
        assertThat(back.erasure().chunkLength(1024)).isEqualTo(512);
    }

    @Test
    void erasureTogetherWithEncryptionAndCacheCounter() {
        Metadata m = coded(3, "a", "b", "c", "d").withEncryption(new Metadata.Encryption("", hash(3)))
                .withCacheCounter(7);
        assertThat(MetadataCodec.decode(MetadataCodec.encode(m))).isEqualTo(m);
    }

    /**
     * Pinned: the replicated 1 KiB entry is 49 bytes (two 2-character cloud ids); k=2, f=1 on three such clouds adds
     * one id (3 bytes) and the extension, tag + length + k + 3 x 32 = 99 bytes: 151 in all; 4+2 on six clouds adds
     * four ids (12) and 1 + 2 + 1 + 6 x 32 = 196: 257.
     */
    @Test
    void metadataBytesPerKeyArePinned() {
        Metadata replicated = new Metadata(new Timestamp(1, "k3m7q2xa"), List.of("c1", "c2"), hash(9), 1024);
        assertThat(MetadataCodec.encode(replicated)).hasSize(49);
        assertThat(MetadataCodec.encode(coded(2, "c1", "c2", "c3"))).hasSize(49 + 3 + 99);
        assertThat(MetadataCodec.encode(coded(4, "c1", "c2", "c3", "c4", "c5", "c6"))).hasSize(49 + 4 * 3 + 196);
    }

    @Test
    void malformedErasureExtensionsAreRejected() {
        byte[] good = MetadataCodec.encode(coded(2, "c1", "c2", "c3"));
        int tagAt = good.length - (2 + 1 + 3 * 32);
        assertThat(good[tagAt]).isEqualTo((byte) 4);
        byte[] zeroK = good.clone();
        zeroK[tagAt + 2] = 0;
        assertThatThrownBy(() -> MetadataCodec.decode(zeroK)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("k=0");
        byte[] bigK = good.clone();
        bigK[tagAt + 2] = 4;
        assertThatThrownBy(() -> MetadataCodec.decode(bigK)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("k=4 data chunks on 3 clouds");
        byte[] truncated = Arrays.copyOf(good, good.length - 1);
        assertThatThrownBy(() -> MetadataCodec.decode(truncated)).isInstanceOf(MetadataFormatException.class);
        assertThatThrownBy(() -> new Metadata(new Timestamp(1, "ab"), List.of("c1", "c2"), hash(1), 4, null, 0,
                new Metadata.Erasure(1, List.of(hash(1), hash(2), hash(3))))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 chunks, 2 clouds");
    }
}
