/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ByteRange;
import io.hybris.Hybris;
import io.hybris.InvalidRangeException;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import io.hybris.crypto.MetadataKeyProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Ranged reads at every boundary of a chunked value (6 chunks: in full chunks, the last of 17 bytes, when its
 * length is not known to the put; of equal size when it is): the bytes, the offsets the stream reports, and exactly
 * which chunk objects were downloaded (each once, plus the manifest once); invalid ranges fail with the value's
 * length before any download.
 */
class StreamingRangeTest {
    private static final int L = 5 * CHUNK + 17;

    /**
     * The chunk size a put of known length {@code L} uses with chunks of at most {@link StreamingFixture#CHUNK}:
     * as many chunks as {@code CHUNK} needs (6), of equal size rounded up to 4 KiB (docs/streaming.md).
     */
    private static final int BALANCED = (int) (((L + 5L) / 6 + 4095) / 4096 * 4096);

    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    private record Case(ByteRange range, long first, long last, List<Integer> chunks) {
    }

    private static List<Integer> chunks(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().toList();
    }

    /**
     * The ranges read, at every boundary of chunks of {@code size} value bytes (the last chunk the rest), with the
     * offsets they cover and the chunks holding them.
     */
    private static List<Case> cases(int size) {
        int last = (L - 1) / size;
        return List.of(
                new Case(ByteRange.of(0, 0), 0, 0, chunks(0, 0)),
                new Case(ByteRange.of(size - 1, size - 1), size - 1, size - 1, chunks(0, 0)),
                new Case(ByteRange.of(0, size - 1), 0, size - 1, chunks(0, 0)),
                new Case(ByteRange.of(size, size), size, size, chunks(1, 1)),
                new Case(ByteRange.of(size - 1, size), size - 1, size, chunks(0, 1)),
                new Case(ByteRange.of(2 * size - 1, 4 * size), 2 * size - 1, 4 * size, chunks(1, 4)),
                new Case(ByteRange.of(3 * size + 5, 3 * size + 100), 3 * size + 5, 3 * size + 100, chunks(3, 3)),
                new Case(ByteRange.of(5 * size, 5 * size), 5 * size, 5 * size, chunks(5, 5)),
                new Case(ByteRange.from(L - 1), L - 1, L - 1, chunks(last, last)),
                new Case(ByteRange.suffix(L - last * size), last * size, L - 1, chunks(last, last)),
                new Case(ByteRange.suffix(L - last * size + 1), last * size - 1, L - 1, chunks(last - 1, last)),
                new Case(ByteRange.suffix(L), 0, L - 1, chunks(0, last)),
                new Case(ByteRange.suffix(L + 100), 0, L - 1, chunks(0, last)),
                new Case(ByteRange.from(3 * size), 3 * size, L - 1, chunks(3, last)),
                new Case(ByteRange.all(), 0, L - 1, chunks(0, last)));
    }

    /**
     * Reads every range with {@code h}; {@code manifestKnown}: {@code h} wrote the version and keeps its manifest,
     * else it reads the manifest from a cloud for the first range and from memory for the rest.
     */
    private void everyRangeReadsItsBytesAndOnlyItsChunks(Hybris h, byte[] v, VersionInfo put, int chunkSize,
                                                         boolean manifestKnown) throws Exception {
        List<Case> cases = cases(chunkSize);
        for (Case c : cases) {
            fx.resetCalls();
            try (ValueStream s = h.get(C, "big", c.range()).orElseThrow()) {
                assertThat(s.first()).as("%s", c.range()).isEqualTo(c.first());
                assertThat(s.length()).as("%s", c.range()).isEqualTo(c.last() - c.first() + 1);
                assertThat(s.version()).isEqualTo(put);
                assertThat(s.readAllBytes()).as("%s", c.range())
                        .isEqualTo(Arrays.copyOfRange(v, (int) c.first(), (int) c.last() + 1));
            }
            Map<Integer, List<String>> gets = fx.chunkGets();
            assertThat(gets.keySet()).as("chunks read for %s", c.range()).containsExactlyElementsOf(c.chunks());
            assertThat(gets.values()).as("one read per chunk for %s", c.range()).allSatisfy(l -> assertThat(l)
                    .hasSize(1));
            assertThat(fx.versionGets()).as("manifest reads for %s: from a cloud once (unless written by this"
                    + " client), then from memory", c.range()).isEqualTo(c == cases.get(0) && !manifestKnown ? 1 : 0);
        }
    }

    @Test
    void rangesOfAChunkedValueFetchOnlyTheCoveringChunks() throws Exception {
        Hybris h = fx.open();
        byte[] v = value(L, 3);
        VersionInfo put = h.put(C, "big", new ByteArrayInputStream(v), L); // known length: equal chunks

        assertThat(put.chunks()).isEqualTo(6);
        assertThat(BALANCED).isLessThan(CHUNK);
        everyRangeReadsItsBytesAndOnlyItsChunks(h, v, put, BALANCED, true);
        everyRangeReadsItsBytesAndOnlyItsChunks(fx.open(b -> b.clientId("r1")), v, put, BALANCED, false);
    }

    @Test
    void rangesOfAChunkedValueOfUnknownLengthInFullChunks() throws Exception {
        Hybris h = fx.open();
        byte[] v = value(L, 11);
        VersionInfo put = h.put(C, "big", new ByteArrayInputStream(v), -1); // full chunks, the last of 17 bytes

        everyRangeReadsItsBytesAndOnlyItsChunks(h, v, put, CHUNK, true);
        everyRangeReadsItsBytesAndOnlyItsChunks(fx.open(b -> b.clientId("r1")), v, put, CHUNK, false);
    }

    @Test
    void rangesOfAnEncryptedChunkedValueToo() throws Exception {
        Hybris h = fx.open(b -> b.encryption(new MetadataKeyProvider()));
        byte[] v = value(L, 4);
        VersionInfo put = h.put(C, "big", new ByteArrayInputStream(v), -1);

        everyRangeReadsItsBytesAndOnlyItsChunks(h, v, put, CHUNK, true);
        everyRangeReadsItsBytesAndOnlyItsChunks(fx.open(b -> b.clientId("r1").encryption(new MetadataKeyProvider())),
                v, put, CHUNK, false);
    }

    @Test
    void rangesOfWholeValuesPlainAndEncrypted() throws Exception {
        Hybris plain = fx.open();
        Hybris sealed = fx.open(b -> b.clientId("w2").encryption(new MetadataKeyProvider()));
        byte[] v = value(1000, 5);
        for (Hybris h : List.of(plain, sealed)) {
            String key = h == plain ? "plain" : "sealed";
            h.put(C, key, v);
            for (ByteRange r : List.of(ByteRange.of(0, 0), ByteRange.of(999, 999), ByteRange.of(10, 5000),
                    ByteRange.suffix(1), ByteRange.suffix(1001), ByteRange.from(500))) {
                try (ValueStream s = h.get(C, key, r).orElseThrow()) {
                    long first = r.firstIn(1000);
                    assertThat(s.first()).isEqualTo(first);
                    assertThat(s.readAllBytes()).as("%s of %s", r, key)
                            .isEqualTo(Arrays.copyOfRange(v, (int) first, (int) (first + r.lengthIn(1000))));
                }
            }
        }
    }

    @Test
    void invalidRangesFailWithTheValueLengthBeforeAnyDownload() {
        Hybris plain = fx.open();
        Hybris sealed = fx.open(b -> b.clientId("w2").encryption(new MetadataKeyProvider()));
        plain.put(C, "big", value(L, 6));
        plain.put(C, "small", value(1000, 7));
        plain.put(C, "empty", new byte[0]);
        sealed.put(C, "sealed-small", value(1000, 8));
        sealed.put(C, "sealed-empty", new byte[0]);
        sealed.put(C, "sealed-big", value(L, 9));
        Map<String, Long> lengths = Map.of("big", (long) L, "small", 1000L, "empty", 0L, "sealed-small", 1000L,
                "sealed-empty", 0L, "sealed-big", (long) L);
        for (Map.Entry<String, Long> e : lengths.entrySet()) {
            Hybris h = e.getKey().startsWith("sealed") ? sealed : plain;
            long length = e.getValue();
            List<ByteRange> invalid = length == 0
                    ? List.of(ByteRange.of(0, 0), ByteRange.from(1), ByteRange.suffix(1), ByteRange.of(5, 10))
                    : List.of(ByteRange.of(length, length), ByteRange.of(length, length + 10), ByteRange.from(length),
                    ByteRange.from(length + 1), ByteRange.of(Long.MAX_VALUE - 1, Long.MAX_VALUE));
            for (ByteRange r : invalid) {
                fx.resetCalls();
                InvalidRangeException thrown = catchThrowableOfType(() -> h.get(C, e.getKey(), r),
                        InvalidRangeException.class);
                assertThat(thrown).as("%s of %s", r, e.getKey()).isNotNull();
                assertThat(thrown.valueLength()).isEqualTo(length);
                assertThat(fx.gets()).as("downloads for %s of %s", r, e.getKey()).isZero();
            }
        }
        // the whole of an empty value is fine, and an empty stream
        try (ValueStream s = sealed.getStream(C, "sealed-empty").orElseThrow()) {
            assertThat(s.length()).isZero();
            assertThat(s.read()).isEqualTo(-1);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void skippingAcrossChunksLandsOnTheRightByte() throws Exception {
        Hybris h = fx.open();
        byte[] v = value(L, 10);
        h.put(C, "big", v);
        try (ValueStream s = h.get(C, "big", ByteRange.from(100)).orElseThrow()) {
            assertThat(s.skip(CHUNK)).isEqualTo(CHUNK);
            assertThat(s.readNBytes(10)).isEqualTo(Arrays.copyOfRange(v, CHUNK + 100, CHUNK + 110));
            assertThat(s.skip(10L * CHUNK)).isEqualTo(L - CHUNK - 110);
            assertThat(s.read()).isEqualTo(-1);
        }
        Map<Integer, List<String>> gets = fx.chunkGets();
        assertThat(gets.values().stream().map(List::size).collect(Collectors.toSet())).containsExactly(1);
    }

    /**
     * {@code available()} of a range that ends inside a chunk counts only the range's bytes left, not the rest of
     * the chunk it holds: a caller sizing its reads by it must not be promised bytes past the range's end. Guards
     * the bound by the bytes remaining in ChunkedReader.available.
     */
    @Test
    void availableCountsOnlyTheRangesBytesLeftInTheChunkHeld() throws Exception {
        Hybris h = fx.open();
        byte[] v = value(L, 11);
        h.put(C, "big", v);
        try (ValueStream s = h.get(C, "big", ByteRange.of(CHUNK + 10, CHUNK + 19)).orElseThrow()) {
            assertThat(s.read()).isEqualTo(v[CHUNK + 10] & 0xff);
            assertThat(s.available()).isEqualTo(9);
            assertThat(s.readNBytes(4)).isEqualTo(Arrays.copyOfRange(v, CHUNK + 11, CHUNK + 15));
            assertThat(s.available()).isEqualTo(5);
            assertThat(s.readAllBytes()).isEqualTo(Arrays.copyOfRange(v, CHUNK + 15, CHUNK + 20));
            assertThat(s.available()).isZero();
        }
    }
}
