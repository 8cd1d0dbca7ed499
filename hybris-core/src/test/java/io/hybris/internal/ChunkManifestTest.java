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

/** The chunk manifest's binary form: round trips, geometry, and rejection of every malformed encoding. */
class ChunkManifestTest {
    private static final int CHUNK = 64 << 10;

    private static byte[] hash(int seed) {
        byte[] h = new byte[Metadata.HASH_BYTES];
        new Random(seed).nextBytes(h);
        return h;
    }

    private static ChunkManifest.Chunk replicated(int seed, long stored, String... clouds) {
        return new ChunkManifest.Chunk(stored, hash(seed), List.of(clouds), null);
    }

    private static ChunkManifest.Chunk erasure(int seed, long stored, int k, String... clouds) {
        List<byte[]> hashes = new ArrayList<>();
        for (int i = 0; i < clouds.length; i++) {
            hashes.add(hash(seed * 100 + i));
        }
        return new ChunkManifest.Chunk(stored, hash(seed), List.of(clouds), new Metadata.Erasure(k, hashes));
    }

    /** A manifest of a value of {@code length} bytes, every chunk replicated on two of three clouds. */
    private static ChunkManifest manifest(long length) {
        List<ChunkManifest.Chunk> chunks = new ArrayList<>();
        int n = (int) ChunkManifest.chunkCount(length, CHUNK);
        for (int i = 0; i < n; i++) {
            long bytes = Math.min(CHUNK, length - (long) i * CHUNK);
            chunks.add(replicated(i, bytes, "c" + (i % 3), "c" + ((i + 1) % 3)));
        }
        return new ChunkManifest(CHUNK, length, chunks);
    }

    @Test
    void replicatedAndErasureCodedChunksRoundTrip() {
        ChunkManifest m = new ChunkManifest(CHUNK, 2L * CHUNK + 5, List.of(
                replicated(1, CHUNK, "aws", "azure"),
                erasure(2, CHUNK + 33, 2, "gcs", "aws", "azure"),
                replicated(3, 5 + 33, "azure", "gcs")));

        ChunkManifest back = ChunkManifest.decode(m.encode());

        assertThat(back).isEqualTo(m);
        assertThat(back.chunks().get(1).erasure().dataChunks()).isEqualTo(2);
        assertThat(back.chunks().get(1).clouds()).containsExactly("gcs", "aws", "azure");
        assertThat(back.chunks().get(2).erasure()).isNull();
    }

    @Test
    void valuesAtEveryChunkBoundaryRoundTripWithTheirGeometry() {
        for (long length : new long[] {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 10L * CHUNK, 10L * CHUNK + 7}) {
            ChunkManifest m = manifest(length);

            ChunkManifest back = ChunkManifest.decode(m.encode());

            assertThat(back).as("length %d", length).isEqualTo(m);
            assertThat(back.chunks()).hasSize((int) ((length + CHUNK - 1) / CHUNK));
            long total = 0;
            for (int i = 0; i < back.chunks().size(); i++) {
                assertThat(back.offsetOf(i)).isEqualTo((long) i * CHUNK);
                assertThat(back.chunkAt(back.offsetOf(i))).isEqualTo(i);
                assertThat(back.chunkAt(back.offsetOf(i) + back.valueBytesIn(i) - 1)).isEqualTo(i);
                total += back.valueBytesIn(i);
            }
            assertThat(total).isEqualTo(length);
        }
    }

    @Test
    void aManifestOfPartsKeepsEachChunksNameIndexAndLength() {
        long p1 = PartNames.index(1, 77, 0);
        long p1b = PartNames.index(1, 77, 1);
        long p3 = PartNames.index(3, 5, 0);
        ChunkManifest m = ChunkManifest.ofParts(List.of(replicated(1, CHUNK + 28, "c0", "c1").at(p1, CHUNK),
                erasure(2, 40, 2, "c1", "c2", "c0").at(p1b, 12), replicated(3, 33, "c2", "c0").at(p3, 5)));

        ChunkManifest back = ChunkManifest.decode(m.encode());

        assertThat(back).isEqualTo(m);
        assertThat(back.isSparse()).isTrue();
        assertThat(back.valueLength()).isEqualTo(CHUNK + 17L);
        assertThat(List.of(back.nameIndex(0), back.nameIndex(1), back.nameIndex(2))).containsExactly(p1, p1b, p3);
        assertThat(List.of(back.offsetOf(0), back.offsetOf(1), back.offsetOf(2)))
                .containsExactly(0L, (long) CHUNK, CHUNK + 12L);
        assertThat(List.of(back.chunkAt(CHUNK - 1), back.chunkAt(CHUNK), back.chunkAt(CHUNK + 11),
                back.chunkAt(CHUNK + 12), back.chunkAt(CHUNK + 16))).containsExactly(0, 1, 1, 2, 2);
        assertThat(PartNames.partOf(p3)).isEqualTo(3);
        assertThat(ChunkManifest.decode(ChunkManifest.ofParts(List.of()).encode()).valueLength()).isZero();
    }

    @Test
    void aManifestOfPartsRejectsIndicesThatDoNotIncreaseAndLengthsThatDoNotAddUp() {
        ChunkManifest.Chunk a = replicated(1, 10, "c0").at(PartNames.index(2, 0, 0), 10);
        ChunkManifest.Chunk b = replicated(2, 10, "c0").at(PartNames.index(1, 0, 0), 10);
        assertThatThrownBy(() -> ChunkManifest.ofParts(List.of(a, b))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("increasing name indices");
        assertThatThrownBy(() -> new ChunkManifest(0, 21, List.of(b, a))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lists 20 value bytes for a 21-byte value");
        assertThatThrownBy(() -> new ChunkManifest(CHUNK, 10, List.of(a))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("named by its position");
    }

    @Test
    void aReplicatedChunkCostsThirtyNineBytesAndTheCloudTableIsSharedByAllChunks() {
        // 1 version + 3 chunk size (2^16) + 3 length + cloud table (1 + 3 * 3) + 1 count = 18, then per full chunk:
        // 3 stored size + 32 hash + 1 k + 1 count + 2 cloud indexes = 39
        assertThat(manifest(0).encode()).hasSize(1 + 3 + 1 + 1 + 1);
        assertThat(manifest(10L * CHUNK).encode()).hasSize(1 + 3 + 3 + 1 + 3 * 3 + 1 + 10 * 39);
    }

    @Test
    void everyTruncationIsRejected() {
        byte[] full = new ChunkManifest(CHUNK, CHUNK + 1L, List.of(replicated(1, CHUNK, "c0", "c1"),
                erasure(2, 1, 1, "c1", "c2"))).encode();
        for (int len = 0; len < full.length; len++) {
            byte[] cut = Arrays.copyOf(full, len);
            assertThatThrownBy(() -> ChunkManifest.decode(cut)).as("first %d bytes", len)
                    .isInstanceOf(MetadataFormatException.class);
        }
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] full = manifest(3L * CHUNK).encode();
        byte[] longer = Arrays.copyOf(full, full.length + 1);

        assertThatThrownBy(() -> ChunkManifest.decode(longer)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("1 trailing bytes");
    }

    @Test
    void aChunkCountThatDoesNotMatchTheLengthIsRejected() {
        // 2 chunks listed, but the header says a 3-chunk value: rewrite the length varint (3 bytes for 2^17 + 1)
        byte[] two = manifest(2L * CHUNK).encode();
        byte[] lying = two.clone();
        // header: version, chunk size varint (3 bytes), length varint starting at index 4
        byte[] threeChunks = varint(2L * CHUNK + 1);
        assertThat(threeChunks).hasSize(3);
        System.arraycopy(threeChunks, 0, lying, 4, 3);

        assertThatThrownBy(() -> ChunkManifest.decode(lying)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("lists 2 chunks").hasMessageContaining(Long.toString(2L * CHUNK + 1));
        assertThatThrownBy(() -> new ChunkManifest(CHUNK, CHUNK + 1L, List.of(replicated(1, CHUNK, "c0"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs 2 chunks, has 1");
    }

    @Test
    void unknownVersionsACloudIndexOutsideTheTableAndAZeroChunkSizeAreRejected() {
        byte[] full = manifest(CHUNK).encode();
        byte[] v3 = full.clone();
        v3[0] = 3;
        assertThatThrownBy(() -> ChunkManifest.decode(v3)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("unknown chunk manifest format 3");
        byte[] v2WithChunkSize = full.clone();
        v2WithChunkSize[0] = 2;
        assertThatThrownBy(() -> ChunkManifest.decode(v2WithChunkSize)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("chunk size " + CHUNK);

        byte[] badIndex = full.clone();
        badIndex[badIndex.length - 1] = 9; // the chunk's last cloud index; the table has 2 clouds
        assertThatThrownBy(() -> ChunkManifest.decode(badIndex)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("names cloud #9 of 2");

        byte[] zero = {1, 0, 0, 0, 0};
        assertThatThrownBy(() -> ChunkManifest.decode(zero)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("chunk size 0");
    }

    @Test
    void seededGarbageNeverFailsWithAnythingButAFormatException() {
        Random r = new Random(42);
        byte[] full = manifest(5L * CHUNK + 3).encode();
        for (int i = 0; i < 2000; i++) {
            byte[] mutated = full.clone();
            mutated[r.nextInt(mutated.length)] = (byte) r.nextInt(256);
            try {
                ChunkManifest.decode(mutated);
            } catch (MetadataFormatException expected) {
                // fine: rejected as malformed
            }
        }
    }

    private static byte[] varint(long v) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
        return out.toByteArray();
    }
}
