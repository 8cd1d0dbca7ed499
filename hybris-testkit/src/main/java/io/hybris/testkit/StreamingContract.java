/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ByteRange;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.SweepReport;
import io.hybris.ValueSourceException;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The large-value suite (docs/streaming.md) every metadata store and cloud setup runs beside {@link HybrisContract}:
 * chunked values through every call, range reads that fetch only their chunks, a corrupt chunk costing one extra
 * chunk read, garbage collection of every chunk, and a failed upload that leaves nothing after the sweep. Chunks
 * are 64 KiB here so the suite stays fast; the chunk boundaries are what matters.
 */
public abstract class StreamingContract extends HybrisContractFixture {
    /** The chunk size and threshold of the suite's clients. */
    protected static final int CHUNK = 64 << 10;

    @TempDir
    Path dir;

    /** A client over {@code clouds} that chunks values above {@link #CHUNK} into chunks of {@link #CHUNK}. */
    protected HybrisConfig.Builder chunking(List<? extends CloudStore> clouds) {
        return config(clouds).chunkSize(CHUNK).chunkThreshold(CHUNK).chunkParallelUploads(3).chunkReadAhead(2);
    }

    /**
     * {@link #chunking} for tests that count cloud requests: no hedged reads and timers longer than any request on a
     * loaded host, so that a slow cloud does not make a second request (on emulators sharing the cores with a build,
     * a chunk GET took longer than the 400 ms initial timer and another cloud was asked).
     */
    protected HybrisConfig.Builder counting(List<? extends CloudStore> clouds) {
        return chunking(clouds).timerInitial(Duration.ofSeconds(10)).timerMin(Duration.ofSeconds(10))
                .reads(io.hybris.ReadSettings.builder().hedge(false).build());
    }

    protected static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void chunkedValuesRoundTripThroughEveryCall() throws IOException {
        Hybris h = open(chunking(raw));
        int[] sizes = {CHUNK + 1, 2 * CHUNK, 3 * CHUNK + 7};
        for (int size : sizes) {
            byte[] v = random(size, size);
            VersionInfo known = h.put(C, "known-" + size, new ByteArrayInputStream(v), size);
            VersionInfo unknown = h.put(C, "unknown-" + size, new ByteArrayInputStream(v), -1);
            Path file = dir.resolve("in-" + size);
            Files.write(file, v);
            h.put(C, "file-" + size, file);
            h.put(C, "array-" + size, v);
            assertThat(known.size()).isEqualTo(size);
            assertThat(unknown.size()).isEqualTo(size);
            for (String prefix : List.of("known-", "unknown-", "file-", "array-")) {
                String key = prefix + size;
                assertThat(h.get(C, key)).as(key).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
                assertThat(h.describe(C, key).orElseThrow().size()).isEqualTo(size);
                try (ValueStream in = h.getStream(C, key).orElseThrow()) {
                    assertThat(in.length()).isEqualTo(size);
                    assertThat(in.readAllBytes()).isEqualTo(v);
                }
                Path out = dir.resolve("out-" + key);
                assertThat(h.getTo(C, key, out)).hasValueSatisfying(i -> assertThat(i.size()).isEqualTo(size));
                assertThat(Files.readAllBytes(out)).isEqualTo(v);
            }
            // every chunk and the manifest are on f+1 = 2 clouds
            long chunks = (size + CHUNK - 1) / CHUNK;
            long stored = raw.stream().mapToLong(c -> objectsOn(c, "/known-" + size + "#")).sum();
            assertThat(stored).isEqualTo(2 * (chunks + 1));
        }
        assertThat(h.getStream(C, "absent")).isEmpty();
        assertThat(h.getTo(C, "absent", dir.resolve("never"))).isEmpty();
        assertThat(dir.resolve("never")).doesNotExist();
    }

    @Test
    void aValueUploadedInPartsFromTwoClientsIsStoredOnceAndItsLeftoversGo() throws IOException {
        Hybris a = open(chunking(raw));
        Hybris b = open(chunking(raw));
        io.hybris.PartUploads onA = io.hybris.PartUploads.of(a);
        io.hybris.PartUploads onB = io.hybris.PartUploads.of(b);
        byte[] p1 = random(CHUNK + 5, 1);     // two chunks
        byte[] p2 = random(CHUNK, 2);         // one chunk, uploaded twice: the second try is kept
        byte[] p3 = random(17, 3);            // one short chunk
        a.put(C, "parts", bytes("before"));
        io.hybris.PartUpload upload = onA.start(C, "parts");
        io.hybris.UploadedPart firstTry = onA.upload(upload, 2, new ByteArrayInputStream(random(CHUNK, 22)), CHUNK);
        io.hybris.UploadedPart u2 = onB.upload(upload, 2, new ByteArrayInputStream(p2), CHUNK);
        io.hybris.UploadedPart u3 = onA.upload(upload, 3, new ByteArrayInputStream(p3), -1);
        io.hybris.UploadedPart u1 = onB.upload(new io.hybris.PartUpload(C, "parts", upload.token()), 1,
                new ByteArrayInputStream(p1), p1.length);
        assertThat(firstTry.partNumber()).isEqualTo(u2.partNumber());
        assertThat(a.get(C, "parts")).as("nothing visible before the completion")
                .hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("before")));

        VersionInfo v = onB.complete(upload, List.of(u1, u2, u3), io.hybris.PutOptions.none());

        byte[] whole = new byte[p1.length + p2.length + p3.length];
        System.arraycopy(p1, 0, whole, 0, p1.length);
        System.arraycopy(p2, 0, whole, p1.length, p2.length);
        System.arraycopy(p3, 0, whole, p1.length + p2.length, p3.length);
        assertThat(v.size()).isEqualTo(whole.length);
        assertThat(a.get(C, "parts")).hasValueSatisfying(got -> assertThat(got).isEqualTo(whole));
        try (ValueStream in = a.get(C, "parts", ByteRange.of(CHUNK, CHUNK + 9)).orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(whole, CHUNK, CHUNK + 10));
        }
        // the first try of part 2 and the old value go; 4 chunks and the manifest stay, on f+1 = 2 clouds each
        await().atMost(AWAIT).untilAsserted(() -> assertThat(raw.stream()
                .mapToLong(c -> objectsOn(c, "/parts#")).sum()).isEqualTo(2 * (4 + 1)));
        assertThat(b.get(C, "parts")).hasValueSatisfying(got -> assertThat(got).isEqualTo(whole));
    }

    @Test
    void aRangeReadFetchesOnlyTheChunksCoveringIt() throws IOException {
        List<RecordingCloudStore> clouds = recording(UnaryOperator.identity());
        Hybris writer = open(counting(clouds));
        byte[] v = random(5 * CHUNK + 100, 5);
        writer.put(C, "big", new ByteArrayInputStream(v), -1); // length unknown: full chunks, the last of 100 bytes
        Hybris h = open(counting(clouds)); // a client that has not seen the manifest: the writer keeps it
        clouds.forEach(RecordingCloudStore::reset);
        try (ValueStream in = h.get(C, "big", ByteRange.of(CHUNK - 10, CHUNK + 9)).orElseThrow()) {
            assertThat(in.first()).isEqualTo(CHUNK - 10);
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(v, CHUNK - 10, CHUNK + 10));
        }
        // the manifest (the version's own name) and chunks 0 and 1, once each
        assertThat(gets(clouds, "#c")).isEqualTo(2);
        assertThat(gets(clouds, "#c0")).isEqualTo(1);
        assertThat(gets(clouds, "#c1")).isEqualTo(1);
        assertThat(gets(clouds, "")).isEqualTo(3);

        clouds.forEach(RecordingCloudStore::reset);
        try (ValueStream in = h.get(C, "big", ByteRange.suffix(150)).orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(v, v.length - 150, v.length));
        }
        assertThat(gets(clouds, "#c4")).isEqualTo(1);
        assertThat(gets(clouds, "#c5")).isEqualTo(1);
        assertThat(gets(clouds, "#c")).isEqualTo(2);

        // the writer reads the version it wrote with the manifest it stored: chunks 0 and 1 only
        clouds.forEach(RecordingCloudStore::reset);
        try (ValueStream in = writer.get(C, "big", ByteRange.of(CHUNK - 10, CHUNK + 9)).orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(v, CHUNK - 10, CHUNK + 10));
        }
        assertThat(gets(clouds, "#c0")).isEqualTo(1);
        assertThat(gets(clouds, "#c1")).isEqualTo(1);
        assertThat(gets(clouds, "")).isEqualTo(2);
    }

    @Test
    void aCorruptChunkOnTheFastestCloudCostsOneExtraChunkRead() {
        // c0 serves chunk 1 with every bit flipped; everything else it serves intact
        List<RecordingCloudStore> clouds = recording(c -> new ForwardingCloudStore(c) {
            @Override
            public Optional<byte[]> get(String objectKey, long maxBytes) {
                Optional<byte[]> got = delegate().get(objectKey, maxBytes);
                if (!objectKey.endsWith("#c1") || got.isEmpty()) {
                    return got;
                }
                byte[] bad = got.get().clone();
                bad[bad.length / 2] ^= 0x40;
                return Optional.of(bad);
            }
        });
        Hybris h = open(counting(clouds));
        byte[] v = random(3 * CHUNK, 3);
        h.put(C, "big", v);
        VersionInfo info = h.describe(C, "big").orElseThrow();
        assertThat(info.clouds()).contains("c0");
        long corruptReads = 0;
        for (int round = 0; round < 5; round++) {
            clouds.forEach(RecordingCloudStore::reset);
            assertThat(h.get(C, "big")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
            long chunk1OnC0 = clouds.get(0).count(RecordingCloudStore.Op.GET, "#c1");
            long chunk1Elsewhere = clouds.get(1).count(RecordingCloudStore.Op.GET, "#c1")
                    + clouds.get(2).count(RecordingCloudStore.Op.GET, "#c1");
            // the corrupt copy, when read, costs exactly one more read of chunk 1 and nothing else
            assertThat(chunk1OnC0).isLessThanOrEqualTo(1);
            assertThat(chunk1Elsewhere).isEqualTo(1);
            corruptReads += chunk1OnC0;
            for (String other : List.of("#c0", "#c2")) {
                assertThat(clouds.stream().mapToLong(c -> c.count(RecordingCloudStore.Op.GET, other)).sum())
                        .as("reads of %s", other).isEqualTo(1);
            }
        }
        // c0 is first in the ranking until it has measurements, so the corrupt copy was read at least once
        assertThat(corruptReads).isPositive();
    }

    @Test
    void overwriteAndDeleteCollectEveryChunkOfTheSupersededVersion() {
        Hybris h = open(chunking(raw));
        h.put(C, "big", random(4 * CHUNK + 1, 1));
        h.put(C, "big", random(2 * CHUNK + 1, 2));
        VersionInfo current = h.describe(C, "big").orElseThrow();
        await().atMost(AWAIT).untilAsserted(() -> {
            for (CloudStore cloud : raw) {
                List<String> names = cloud.list("hybris/box/big#").stream().map(CloudObject::key).toList();
                assertThat(names).as("on %s", cloud.id())
                        .allSatisfy(n -> assertThat(n).contains("#" + current.version()));
            }
            assertThat(raw.stream().mapToLong(c -> objectsOn(c, "/big#")).sum()).isEqualTo(2 * (3 + 1));
        });
        h.delete(C, "big");
        await().atMost(AWAIT).until(() -> raw.stream().mapToLong(c -> c.list("hybris/").size()).sum() == 0);
    }

    @Test
    void aFailedUploadCommitsNothingAndLeavesNothingAfterTheSweep() {
        MutableClock clock = new MutableClock();
        // the clouds' clocks move with the client's: the sweep ages objects on each cloud's own clock
        Hybris h = open(chunking(ClockFollowingCloudStore.all(raw, clock)).clock(clock)
                .gcGrace(Duration.ofMinutes(10)));
        h.put(C, "big", random(2 * CHUNK + 1, 1));
        VersionInfo before = h.describe(C, "big").orElseThrow();
        InputStream failing = new InputStream() {
            private int left = 3 * CHUNK + 5;

            @Override
            public int read() throws IOException {
                if (left-- <= 0) {
                    throw new IOException("disk went away");
                }
                return 7;
            }
        };
        assertThatThrownBy(() -> h.put(C, "big", failing, 10L * CHUNK))
                .isInstanceOf(ValueSourceException.class).hasMessageContaining("disk went away")
                .hasCauseInstanceOf(IOException.class);
        assertThat(h.describe(C, "big")).hasValue(before);
        // the uploaded chunks are deleted in the background; the sweep finds nothing of the failed write later
        await().atMost(AWAIT).until(() -> raw.stream().mapToLong(c -> objectsOn(c, "/big#")).sum() == 2 * (3 + 1));
        clock.advance(Duration.ofMinutes(11));
        SweepReport sweep = h.sweepOrphans();
        assertThat(sweep.deleted()).isZero();
        assertThat(sweep.tooYoung()).isZero();
        assertThat(sweep.referenced()).isEqualTo(2 * (3 + 1));
        assertThat(h.get(C, "big").orElseThrow()).hasSize(2 * CHUNK + 1);
    }

    private static long gets(List<RecordingCloudStore> clouds, String fragment) {
        return clouds.stream().mapToLong(c -> c.count(RecordingCloudStore.Op.GET, fragment)).sum();
    }
}
