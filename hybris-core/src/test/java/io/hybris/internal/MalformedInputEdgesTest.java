/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.InvalidRequestException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Edges of the binary formats' decoders that the round-trip and truncation tests do not reach: a value that fits
 * its varint but not the field it is cast to, a length that points past the input or is negative, a repeated or
 * over-long extension body, a repeated name index. Each must be refused with the format's own exception, never
 * decoded into something else or escape as an unchecked exception the caller does not expect.
 */
class MalformedInputEdgesTest {
    private static final byte[] HASH = new byte[Metadata.HASH_BYTES];

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] varint(long v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Varints.write(out, v);
        return out.toByteArray();
    }

    private static byte[] b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return out;
    }

    private static Metadata replicated() {
        return new Metadata(new Timestamp(7, "abc"), List.of("c1", "c2"), HASH, 10);
    }

    // ------------------------------------------------------------------ chunk manifest

    /** A one-chunk format-1 manifest with the given chunk size and value length (one cloud, "c0"). */
    private static byte[] manifestV1(long chunkSize, long valueLength) {
        return concat(b(ChunkManifest.FORMAT_V1), varint(chunkSize), varint(valueLength), b(1, 2, 'c', '0'),
                varint(1), varint(1), HASH, b(0, 1, 0));
    }

    @Test
    void aManifestChunkSizeAboveTheIntRangeIsRefusedNotTruncated() {
        assertThat(ChunkManifest.decode(manifestV1(1, 1)).chunkSize()).isEqualTo(1); // the well-formed one
        // 2^32 + 1 would read as a chunk size of 1 if it were cast before the range check
        assertThatThrownBy(() -> ChunkManifest.decode(manifestV1((1L << 32) + 1, 1)))
                .isInstanceOf(MetadataFormatException.class).hasMessageContaining("chunk size " + ((1L << 32) + 1));
    }

    @Test
    void aChunkCountLargerThanTheManifestIsRefusedBeforeAnythingIsAllocatedForIt() {
        // a consistent geometry (2^31 - 1 one-byte chunks) in a 20-byte manifest: refused, not an array of 2^31 - 1
        long n = Integer.MAX_VALUE;
        byte[] bytes = concat(b(ChunkManifest.FORMAT_V1), varint(1), varint(n), b(0), varint(n));
        assertThatThrownBy(() -> ChunkManifest.decode(bytes)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("lists " + n + " chunks");
    }

    @Test
    void aManifestOfPartsRefusesARepeatedNameIndexAndAnEmptyChunk() {
        long index = PartNames.index(1, 0, 0);
        ChunkManifest.Chunk a = new ChunkManifest.Chunk(10, HASH, List.of("c0"), null).at(index, 10);
        ChunkManifest.Chunk sameIndex = new ChunkManifest.Chunk(10, HASH, List.of("c0"), null).at(index, 10);
        assertThatThrownBy(() -> ChunkManifest.ofParts(List.of(a, sameIndex)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("increasing name indices");
        ChunkManifest.Chunk empty = new ChunkManifest.Chunk(16, HASH, List.of("c0"), null)
                .at(PartNames.index(2, 0, 0), 0);
        assertThatThrownBy(() -> ChunkManifest.ofParts(List.of(a, empty)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-empty");
    }

    @Test
    void aPartNameIndexNeverSpillsTheChunkIntoTheAttemptBits() {
        long last = PartNames.index(1, 0, PartNames.MAX_CHUNKS_PER_PART - 1);
        assertThat(last).isLessThan(PartNames.index(1, 1, 0));
        assertThatThrownBy(() -> PartNames.index(1, 0, PartNames.MAX_CHUNKS_PER_PART))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // ------------------------------------------------------------------ metadata extensions

    private static byte[] withExtension(Metadata m, int tag, byte[] body) {
        return concat(MetadataCodec.encode(m), b(tag), varint(body.length), body);
    }

    @Test
    void aRepeatedCacheCounterIsRefused() {
        byte[] once = MetadataCodec.encode(replicated().withCacheCounter(3));
        assertThat(MetadataCodec.decode(once).cacheCounter()).isEqualTo(3);
        byte[] twice = concat(once, b(3, 1, 5));
        assertThatThrownBy(() -> MetadataCodec.decode(twice)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("repeated metadata extension 3");
    }

    @Test
    void anEncryptionBodyWithBytesAfterTheWrappedKeyIsRefused() {
        byte[] body = concat(b(2, 'k', '1'), varint(3), b(1, 2, 3));
        assertThat(MetadataCodec.decode(withExtension(replicated(), 1, body)).encryption().keyId()).isEqualTo("k1");
        byte[] longer = concat(body, b(9));
        assertThatThrownBy(() -> MetadataCodec.decode(withExtension(replicated(), 1, longer)))
                .isInstanceOf(MetadataFormatException.class).hasMessageContaining("trailing");
    }

    @Test
    void aChunkSizeAboveTheIntRangeInTheChunkedExtensionIsRefused() {
        byte[] fits = concat(varint(100), varint(Integer.MAX_VALUE));
        assertThat(MetadataCodec.decode(withExtension(replicated(), 5, fits)).chunked().chunkSize())
                .isEqualTo(Integer.MAX_VALUE);
        byte[] above = concat(varint(100), varint((1L << 32) + 16));
        assertThatThrownBy(() -> MetadataCodec.decode(withExtension(replicated(), 5, above)))
                .isInstanceOf(MetadataFormatException.class).hasMessageContaining("in chunks of " + ((1L << 32) + 16));
    }

    @Test
    void erasureCodingWithMoreDataChunksThanCloudsIsRefused() {
        // two clouds, k = 3
        byte[] body = concat(b(3), HASH, HASH);
        assertThatThrownBy(() -> MetadataCodec.decode(withExtension(replicated(), 4, body)))
                .isInstanceOf(MetadataFormatException.class).hasMessageContaining("k=3");
    }

    @Test
    void repeatedApplicationMetadataNamesAreRefused() {
        byte[] pair = concat(varint(1), b('a'), varint(1), b('x'));
        byte[] body = concat(varint(2), pair, pair);
        assertThatThrownBy(() -> MetadataCodec.decode(withExtension(replicated(), 6, body)))
                .isInstanceOf(MetadataFormatException.class).hasMessageContaining("repeats 'a'");
    }

    // ------------------------------------------------------------------ cache entries

    @Test
    void cacheEntriesOfAnotherNameOrKindOrWithOtherBytesAreRefused() {
        byte[] stored = "0123456789".getBytes(StandardCharsets.US_ASCII);
        Metadata meta = new Metadata(new Timestamp(7, "abc"), List.of("c1"), Hashing.sha256(stored), stored.length);
        byte[] entry = CacheEntryCodec.encode(CacheEntryCodec.KIND_TIME, 42, "box/k", meta, stored);
        CacheEntryCodec.Entry e = CacheEntryCodec.decode(entry, CacheEntryCodec.KIND_TIME, "box/k");
        assertThat(e.meta()).isEqualTo(meta);
        assertThat(e.stored()).isEqualTo(stored);
        assertThat(e.knownAtMillis()).isEqualTo(42);

        assertThatThrownBy(() -> CacheEntryCodec.decode(entry, CacheEntryCodec.KIND_TIME, "box/other"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("belongs to 'box/k'");
        assertThatThrownBy(() -> CacheEntryCodec.decode(entry, CacheEntryCodec.KIND_VERSIONS, "box/k"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kind");
        byte[] flipped = entry.clone();
        flipped[flipped.length - 1] ^= 1; // last stored byte
        assertThatThrownBy(() -> CacheEntryCodec.decode(flipped, CacheEntryCodec.KIND_TIME, "box/k"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not match");
        byte[] trailing = Arrays.copyOf(entry, entry.length + 1);
        assertThatThrownBy(() -> CacheEntryCodec.decode(trailing, CacheEntryCodec.KIND_TIME, "box/k"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trailing");
    }

    @Test
    void aCacheEntryWithANegativeLengthIsRefusedAsInvalid() {
        // magic, kind, 8-byte time, then a name length varint that decodes to -1
        byte[] entry = concat(b(0xC7, CacheEntryCodec.KIND_TIME), new byte[8], b(0xff, 0xff, 0xff, 0xff, 0x0f));
        assertThatThrownBy(() -> CacheEntryCodec.decode(entry, CacheEntryCodec.KIND_TIME, "box/k"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("length -1");
    }

    // ------------------------------------------------------------------ upload tokens

    private static String token(byte[] raw) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

    /** byte 1, sn 5, client "abc", write id 3 (+1), then what follows. */
    private static byte[] tokenHead() {
        return concat(b(1), varint(5), b(3, 'a', 'b', 'c'), varint(4));
    }

    @Test
    void uploadTokensRoundTripAndRefuseAWrappedKeyLengthPastTheirEnd() {
        UploadToken t = new UploadToken(new Timestamp(5, "abc", 3), new Metadata.Encryption("k1", new byte[] {1, 2}));
        UploadToken back = UploadToken.decode(t.encode());
        assertThat(back.timestamp()).isEqualTo(t.timestamp());
        assertThat(back.encryption().keyId()).isEqualTo("k1");
        assertThat(back.encryption().wrapped()).containsExactly(1, 2);

        // a wrapped-key length of 2^32 - 1: as an int, -1
        String pastEnd = token(concat(tokenHead(), b(1, 2, 'k', '1'), varint((1L << 32) - 1), b(1, 2)));
        assertThatThrownBy(() -> UploadToken.decode(pastEnd)).isInstanceOf(InvalidRequestException.class);
        String justPast = token(concat(tokenHead(), b(1, 2, 'k', '1'), varint(3), b(1, 2)));
        assertThatThrownBy(() -> UploadToken.decode(justPast)).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void uploadTokensWithTrailingBytesOrAnInvalidClientIdAreRefused() {
        assertThat(UploadToken.decode(token(concat(tokenHead(), b(0)))).timestamp())
                .isEqualTo(new Timestamp(5, "abc", 3));
        assertThatThrownBy(() -> UploadToken.decode(token(concat(tokenHead(), b(0, 0)))))
                .isInstanceOf(InvalidRequestException.class);
        String upper = token(concat(b(1), varint(5), b(3, 'A', 'B', 'C'), varint(4), b(0)));
        assertThatThrownBy(() -> UploadToken.decode(upper)).isInstanceOf(InvalidRequestException.class);
    }
}
