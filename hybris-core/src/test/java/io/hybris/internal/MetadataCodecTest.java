/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

class MetadataCodecTest {
    private static byte[] hash(int seed) {
        byte[] h = new byte[Metadata.HASH_BYTES];
        new Random(seed).nextBytes(h);
        return h;
    }

    private static Metadata replicated(long sn, String clientId, long size, String... clouds) {
        return new Metadata(new Timestamp(sn, clientId), List.of(clouds), hash((int) sn), size);
    }

    private static Metadata roundTrip(Metadata m) {
        return MetadataCodec.decode(MetadataCodec.encode(m));
    }

    @Test
    void tombstonesRoundTrip() {
        for (long sn : new long[] {0, 1, 127, 128, 1L << 40, Long.MAX_VALUE}) {
            Metadata tombstone = Metadata.tombstone(new Timestamp(sn, "abcdefgh"));
            Metadata back = roundTrip(tombstone);
            assertThat(back).isEqualTo(tombstone);
            assertThat(back.isTombstone()).isTrue();
        }
    }

    @Test
    void applicationMetadataRoundTripsAndIsValidated() {
        java.util.Map<String, String> meta = java.util.Map.of("content-type", "text/plain", "mtime", "1732435200",
                "note", "naïve ☃", "empty", "");
        Metadata m = new Metadata(new Timestamp(4, "abcdefgh"), List.of("c1", "c2"), new byte[32], 10, null, 0,
                null, null, meta);
        byte[] encoded = MetadataCodec.encode(m);
        assertThat(MetadataCodec.decode(encoded)).isEqualTo(m);
        assertThat(MetadataCodec.decode(encoded).userMetadata()).isEqualTo(meta);
        // without metadata the entry is unchanged (no empty tag)
        Metadata none = new Metadata(new Timestamp(4, "abcdefgh"), List.of("c1", "c2"), new byte[32], 10);
        assertThat(MetadataCodec.encode(none)).hasSize(encoded.length - 2 - 1 - (1 + 12 + 1 + 10) - (1 + 5 + 1 + 10)
                - (1 + 4 + 1 + 10) - (1 + 5 + 1 + 0));
        // every truncation inside the tag is rejected
        for (int cut = MetadataCodec.encode(none).length + 1; cut < encoded.length; cut++) {
            byte[] truncated = Arrays.copyOf(encoded, cut);
            assertThatThrownBy(() -> MetadataCodec.decode(truncated)).isInstanceOf(MetadataFormatException.class);
        }
        assertThatThrownBy(() -> new Metadata(new Timestamp(4, "abcdefgh"), List.of(), new byte[0], 0, null, 0,
                null, null, meta)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sizesRoundTrip() {
        for (long size : new long[] {0, 1, 127, 128, 1024, 16_383, 16_384, 64L << 20, 5L << 30, Long.MAX_VALUE}) {
            Metadata m = replicated(3, "abcdefgh", size, "c1", "c2");
            assertThat(roundTrip(m)).as("size %d", size).isEqualTo(m);
        }
    }

    @Test
    void oneToFiveCloudsRoundTripInOrder() {
        List<String> ids = List.of("aws", "azure-west-1", "c3", "0", "sixteen-chars-id");
        for (int n = 1; n <= 5; n++) {
            Metadata m = new Metadata(new Timestamp(n, "abcdefgh"), ids.subList(0, n), hash(n), 1000 + n);
            Metadata back = roundTrip(m);
            assertThat(back).isEqualTo(m);
            assertThat(back.clouds()).containsExactlyElementsOf(ids.subList(0, n));
            assertThat(back.sha256()).isEqualTo(hash(n));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "abcdefgh", "234567", "zzzzzzzzz", "abcdefghijklmnopqrstuvwxyz234567",
            "client-1", "0123456789", "x", "a-b", "8", "abcdefghijklmnopqrstuvwxyz012345"})
    void clientIdsRoundTripPackedOrNot(String clientId) {
        Metadata m = replicated(42, clientId, 10, "c1");
        Metadata t = Metadata.tombstone(new Timestamp(42, clientId));

        assertThat(roundTrip(m)).isEqualTo(m);
        assertThat(roundTrip(t)).isEqualTo(t);
    }

    @Test
    void base32ClientIdsArePacked() {
        int packed = MetadataCodec.encode(Metadata.tombstone(new Timestamp(1, "abcdefgh"))).length;
        int plain = MetadataCodec.encode(Metadata.tombstone(new Timestamp(1, "abcdefg1"))).length;

        assertThat(packed).isEqualTo(1 + 1 + 1 + 5 + 1);
        assertThat(plain).isEqualTo(1 + 1 + 1 + 8 + 1);
    }

    @Test
    void aReplicatedEntryTakesFortyNineBytes() {
        Metadata m = new Metadata(new Timestamp(1, "k3m7q2xa"), List.of("c1", "c2"), hash(9), 1024);

        byte[] encoded = MetadataCodec.encode(m);

        // version 1 + sn 1 + client id 1+5 + cloud count 1 + size 2 + hash 32 + clouds 2*(1+2)
        assertThat(encoded).hasSize(49);
        assertThat(encoded.length).isLessThanOrEqualTo(50);
        assertThat(encoded[0]).isEqualTo((byte) MetadataCodec.FORMAT_V1);
    }

    @Test
    void aReplicatedEntryWithAWriteIdTakesFiftyThreeBytesAndRoundTrips() {
        long writeId = new WriteIds().next();
        Metadata m = new Metadata(new Timestamp(1, "k3m7q2xa", writeId), List.of("c1", "c2"), hash(9), 1024);

        byte[] encoded = MetadataCodec.encode(m);

        // the 49 bytes above + the write id as a 4-byte varint (WriteIds starts in [2^21, 2^27))
        assertThat(encoded).hasSize(53);
        assertThat(MetadataCodec.decode(encoded).timestamp()).isEqualTo(new Timestamp(1, "k3m7q2xa", writeId));
        Metadata tombstone = Metadata.tombstone(new Timestamp(7, "abcdefg1", 0));
        assertThat(MetadataCodec.decode(MetadataCodec.encode(tombstone)).timestamp())
                .isEqualTo(new Timestamp(7, "abcdefg1", 0));
    }

    @Test
    void timestampsOfOneClientDifferByWriteIdAndOrderByIt() {
        Timestamp a = new Timestamp(5, "c", 10);
        Timestamp b = new Timestamp(5, "c", 11);

        assertThat(a).isNotEqualTo(b);
        assertThat(b.isAfter(a)).isTrue();
        assertThat(new Timestamp(5, "c").isAfter(a)).isFalse();
        assertThat(new Timestamp(6, "a", 0).isAfter(b)).isTrue();
    }

    @Test
    void emptyInputIsRejected() {
        assertThatThrownBy(() -> MetadataCodec.decode(new byte[0]))
                .isInstanceOf(MetadataFormatException.class).hasMessageContaining("truncated");
    }

    @Test
    void everyTruncationIsRejected() {
        for (Metadata m : List.of(replicated(300, "abcdefgh", 1024, "c1", "c2"),
                replicated(1, "client-1", 0, "aws"), Metadata.tombstone(new Timestamp(1L << 50, "client-1")))) {
            byte[] full = MetadataCodec.encode(m);
            for (int length = 0; length < full.length; length++) {
                byte[] cut = Arrays.copyOf(full, length);
                assertThatThrownBy(() -> MetadataCodec.decode(cut)).as("first %d of %d bytes", length, full.length)
                        .isInstanceOf(MetadataFormatException.class).hasMessageContaining("truncated");
            }
        }
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] tombstone = MetadataCodec.encode(Metadata.tombstone(new Timestamp(2, "ab")));
        assertThatThrownBy(() -> MetadataCodec.decode(Arrays.copyOf(tombstone, tombstone.length + 1)))
                .isInstanceOf(MetadataFormatException.class).hasMessageContaining("1 unexpected trailing bytes");
        byte[] full = MetadataCodec.encode(replicated(2, "abcdefgh", 5, "c1"));
        // after the cloud list only whole extensions may follow
        assertThatThrownBy(() -> MetadataCodec.decode(Arrays.copyOf(full, full.length + 1)))
                .isInstanceOf(MetadataFormatException.class).hasMessageContaining("truncated");
        byte[] unknownExtension = Arrays.copyOf(full, full.length + 2);
        unknownExtension[full.length] = 9; // tag 9, empty body
        assertThatThrownBy(() -> MetadataCodec.decode(unknownExtension))
                .isInstanceOf(MetadataFormatException.class).hasMessageContaining("unknown or repeated metadata extension 9");
    }

    @Test
    void encryptionExtensionRoundTripsAndIsAbsentFromTombstones() {
        Metadata plain = replicated(3, "abcdefgh", 1000, "c1", "c2");
        for (Metadata.Encryption e : List.of(new Metadata.Encryption("", new byte[32]),
                new Metadata.Encryption("kek-2026", new byte[60]))) {
            Metadata m = plain.withEncryption(e);
            byte[] encoded = MetadataCodec.encode(m);
            assertThat(MetadataCodec.decode(encoded)).isEqualTo(m);
            assertThat(encoded.length).isEqualTo(MetadataCodec.encode(plain).length + 1 + 1 + 1
                    + e.keyId().length() + 1 + e.wrapped().length);
        }
        assertThatThrownBy(() -> new Metadata(new Timestamp(1, "ab"), List.of(), new byte[0], 0,
                new Metadata.Encryption("", new byte[32]))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unknownVersionsAreRejectedNamingTheVersion() {
        for (int version : new int[] {0, 2, 255}) {
            byte[] bytes = MetadataCodec.encode(replicated(2, "abcdefgh", 5, "c1"));
            bytes[0] = (byte) version;
            assertThatThrownBy(() -> MetadataCodec.decode(bytes)).isInstanceOf(MetadataFormatException.class)
                    .hasMessageContaining("unknown metadata format version " + version);
        }
    }

    @Test
    void malformedNumbersAreRejected() {
        byte[] tooLong = new byte[12];
        tooLong[0] = 1;
        Arrays.fill(tooLong, 1, 12, (byte) 0xff);
        assertThatThrownBy(() -> MetadataCodec.decode(tooLong)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("malformed varint");

        byte[] negative = {1, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01, (byte) 0x81, 0, 0};
        assertThatThrownBy(() -> MetadataCodec.decode(negative)).isInstanceOf(MetadataFormatException.class)
                .hasMessageContaining("negative");
    }

    @Test
    void seededGarbageNeverFailsWithAnythingButAFormatException() {
        Random random = new Random(20261122L);
        List<Throwable> unexpected = new ArrayList<>();
        int rejected = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] garbage = new byte[random.nextInt(80)];
            random.nextBytes(garbage);
            if (garbage.length > 0 && random.nextBoolean()) {
                garbage[0] = MetadataCodec.FORMAT_V1;
            }
            Throwable t = catchThrowable(() -> MetadataCodec.decode(garbage));
            if (t instanceof MetadataFormatException) {
                rejected++;
            } else if (t != null) {
                unexpected.add(t);
            }
        }

        assertThat(unexpected).isEmpty();
        assertThat(rejected).isGreaterThan(19_000);
    }

    @Test
    void theVersionCounterIsTag3AndAbsentWhenZero() {
        Metadata m = new Metadata(new Timestamp(7, "abc"), List.of("a", "b"), new byte[32], 10);
        byte[] plain = MetadataCodec.encode(m);
        byte[] counted = MetadataCodec.encode(m.withCacheCounter(300));
        assertThat(counted.length).isEqualTo(plain.length + 4); // tag, length 2, varint 300 = 0xAC 0x02
        assertThat(Arrays.copyOfRange(counted, plain.length, counted.length))
                .containsExactly(3, 2, 0xAC - 256, 2);
        assertThat(MetadataCodec.decode(counted).cacheCounter()).isEqualTo(300);
        assertThat(MetadataCodec.decode(plain).cacheCounter()).isZero();
    }

    @Test
    void theConditionalMarkIsAnEmptyTag7ThatSurvivesRewritesAndNeverMarksATombstone() {
        Metadata m = new Metadata(new Timestamp(7, "abc"), List.of("a", "b"), new byte[32], 10);
        byte[] plain = MetadataCodec.encode(m);
        byte[] marked = MetadataCodec.encode(m.asConditional());
        assertThat(Arrays.copyOfRange(marked, plain.length, marked.length)).containsExactly(7, 0);
        assertThat(MetadataCodec.decode(marked)).isEqualTo(m.asConditional());
        assertThat(MetadataCodec.decode(marked).conditional()).isTrue();
        assertThat(MetadataCodec.decode(plain).conditional()).isFalse();
        assertThat(MetadataCodec.decode(MetadataCodec.encode(m.asConditional().withCacheCounter(3))).conditional())
                .isTrue();
        Metadata tombstone = Metadata.tombstone(new Timestamp(8, "abc"));
        assertThat(tombstone.asConditional()).isSameAs(tombstone);
        byte[] twice = Arrays.copyOf(marked, marked.length + 2);
        twice[marked.length] = 7;
        assertThatThrownBy(() -> MetadataCodec.decode(twice)).isInstanceOf(MetadataFormatException.class);
        byte[] withBody = Arrays.copyOf(plain, plain.length + 3);
        withBody[plain.length] = 7;
        withBody[plain.length + 1] = 1;
        assertThatThrownBy(() -> MetadataCodec.decode(withBody)).isInstanceOf(MetadataFormatException.class);
    }
}
