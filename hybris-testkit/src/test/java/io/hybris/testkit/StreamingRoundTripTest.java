/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import io.hybris.crypto.MetadataKeyProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Round trips of values at every chunk boundary, through every way in (byte[], stream of known or unknown length,
 * file) and out (byte[], stream, file, async), replicated, encrypted, and with every value chunked (threshold 0) or
 * only those above one chunk; {@code VersionInfo.size} is always the value's length.
 */
class StreamingRoundTripTest {
    private static final int[] LENGTHS = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 5 * CHUNK + 17};

    private final StreamingFixture fx = new StreamingFixture();
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        fx.close();
    }

    enum In { BYTES, KNOWN_LENGTH, UNKNOWN_LENGTH, FILE }

    private VersionInfo put(Hybris h, String key, byte[] v, In in) throws Exception {
        return switch (in) {
            case BYTES -> {
                h.put(C, key, v); // the byte[] put returns nothing
                yield h.describe(C, key).orElseThrow();
            }
            case KNOWN_LENGTH -> h.put(C, key, new ByteArrayInputStream(v), v.length);
            case UNKNOWN_LENGTH -> h.put(C, key, new ByteArrayInputStream(v), -1);
            case FILE -> {
                Path f = dir.resolve(key + ".in");
                Files.write(f, v);
                yield h.put(C, key, f);
            }
        };
    }

    /** Reads the value back every way there is and checks each copy and the version it reports. */
    private void readsBackEveryWay(Hybris h, String key, byte[] v, VersionInfo put) throws Exception {
        assertThat(h.get(C, key)).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
        try (ValueStream s = h.getStream(C, key).orElseThrow()) {
            assertThat(s.version()).isEqualTo(put);
            assertThat(s.first()).isZero();
            assertThat(s.length()).isEqualTo(v.length);
            assertThat(s.readAllBytes()).isEqualTo(v);
            assertThat(s.read()).isEqualTo(-1);
        }
        Path out = dir.resolve(key + ".out");
        assertThat(h.getTo(C, key, out)).contains(put);
        assertThat(Files.readAllBytes(out)).isEqualTo(v);
        try (ValueStream s = h.getStreamAsync(C, key).get(30, TimeUnit.SECONDS).orElseThrow()) {
            byte[] got = new byte[v.length];
            int n = 0;
            for (int b; (b = s.read()) >= 0; n++) { // byte by byte, across every chunk boundary
                got[n] = (byte) b;
            }
            assertThat(n).isEqualTo(v.length);
            assertThat(got).isEqualTo(v);
        }
        assertThat(h.describe(C, key)).contains(put);
        assertThat(put.size()).isEqualTo(v.length);
    }

    @ParameterizedTest(name = "encrypted={0}, threshold={1}")
    @CsvSource({"false, 0", "false, 65536", "true, 0", "true, 65536"})
    void everyLengthRoundTripsEveryWay(boolean encrypted, long threshold) throws Exception {
        Hybris h = fx.open(b -> {
            b.chunkThreshold(threshold);
            return encrypted ? b.encryption(new MetadataKeyProvider()) : b;
        });
        for (int length : LENGTHS) {
            for (In in : In.values()) {
                String key = "v" + length + "-" + in.name().toLowerCase();
                byte[] v = value(length, length * 31L + in.ordinal());

                VersionInfo put = put(h, key, v, in);

                readsBackEveryWay(h, key, v, put);
                boolean chunked = length > threshold;
                List<String> chunks = fx.objectsOf(key).stream()
                        .filter(n -> StreamingFixture.chunkIndex(n).isPresent()).toList();
                // every chunk on f+1 = 2 clouds; the version's own object (value or manifest) too
                assertThat(chunks).as(key).hasSize(chunked ? 2 * ((length + CHUNK - 1) / CHUNK) : 0);
                assertThat(fx.objectsOf(key)).as(key).hasSize(chunks.size() + 2);
            }
        }
    }

    @Test
    void anAsyncStreamingPutAndAnAsyncFileDownloadRoundTrip() throws Exception {
        Hybris h = fx.open();
        byte[] v = value(3 * CHUNK + 5, 7);

        VersionInfo put = h.putAsync(C, "async", new ByteArrayInputStream(v), v.length).get(30, TimeUnit.SECONDS);
        Path out = dir.resolve("async.out");

        assertThat(h.getToAsync(C, "async", out).get(30, TimeUnit.SECONDS)).contains(put);
        assertThat(Files.readAllBytes(out)).isEqualTo(v);
        Path f = dir.resolve("file.in");
        Files.write(f, v);
        VersionInfo fromFile = h.putAsync(C, "file", f).get(30, TimeUnit.SECONDS);
        assertThat(fromFile.size()).isEqualTo(v.length);
        assertThat(h.get(C, "file")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
    }

    @Test
    void absentAndDeletedKeysReadAsEmptyAndLeaveTheTargetFileAlone() throws Exception {
        Hybris h = fx.open();
        Path out = dir.resolve("untouched");
        Files.writeString(out, "keep me");

        assertThat(h.getStream(C, "never")).isEmpty();
        assertThat(h.getTo(C, "never", out)).isEmpty();
        h.put(C, "gone", value(2 * CHUNK + 1, 1));
        h.delete(C, "gone");
        assertThat(h.getStream(C, "gone")).isEmpty();
        assertThat(h.getTo(C, "gone", out)).isEmpty();
        assertThat(Files.readString(out)).isEqualTo("keep me");
        assertThat(h.describe(C, "gone")).isEmpty();
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).containsExactly(out); // no temporary file left behind
        }
    }

    @Test
    void sizeIsTheValueLengthForPlainEncryptedAndChunkedValues() throws Exception {
        Hybris plain = fx.open();
        Hybris sealed = fx.open(b -> b.clientId("w2").encryption(new MetadataKeyProvider()));
        Map<String, Integer> lengths = Map.of("tiny", 3, "whole", CHUNK, "chunked", 4 * CHUNK + 9);
        for (Map.Entry<String, Integer> e : lengths.entrySet()) {
            for (Hybris h : List.of(plain, sealed)) {
                String key = e.getKey() + (h == plain ? "-plain" : "-sealed");
                byte[] v = value(e.getValue(), e.getValue());

                VersionInfo put = h.put(C, key, new ByteArrayInputStream(v), v.length);
                h.put(C, key + "-bytes", v);

                assertThat(h.describe(C, key + "-bytes").orElseThrow().size()).as(key).isEqualTo(v.length);
                assertThat(put.size()).as(key).isEqualTo(v.length);
                Optional<VersionInfo> described = h.describe(C, key);
                assertThat(described).as(key).contains(put);
                assertThat(described.orElseThrow().size()).isEqualTo(v.length);
                try (ValueStream s = h.getStream(C, key).orElseThrow()) {
                    assertThat(s.version().size()).isEqualTo(v.length);
                    assertThat(s.length()).isEqualTo(v.length);
                }
            }
        }
        // and the empty value, encrypted (ciphertext of a header and one tag)
        VersionInfo empty = sealed.put(C, "empty", new ByteArrayInputStream(new byte[0]), -1);
        assertThat(empty.size()).isZero();
        assertThat(sealed.describe(C, "empty").orElseThrow().size()).isZero();
    }
}
