/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ByteRange;
import io.hybris.Hybris;
import io.hybris.InvalidRequestException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.UploadExpiredException;
import io.hybris.UploadedPart;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.PREFIX;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Uploads in parts ({@link PartUploads}): parts stored once as chunks of the version the upload commits, in any
 * order and from any client; completion is one commit; what is left out, replaced or abandoned is deleted; an
 * upload ordered behind a newer version, or idle past half the grace period, fails and commits nothing.
 */
class PartUploadsTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    private static InputStream in(byte[] bytes) {
        return new ByteArrayInputStream(bytes);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] read(Hybris h, String key, ByteRange range) throws IOException {
        try (ValueStream s = h.get(C, key, range).orElseThrow()) {
            return s.readAllBytes();
        }
    }

    /** The chunk objects of {@code key} on every cloud, with their name index. */
    private List<Long> chunkIndexes(String key) {
        return fx.objectsOf(key).stream().flatMap(n -> VersionName.parseChunk(PREFIX, n).stream())
                .map(VersionName.Chunk::index).toList();
    }

    private long chunkPuts() {
        return fx.recorded.stream().flatMap(r -> r.calls().stream())
                .filter(c -> c.op() == RecordingCloudStore.Op.PUT && VersionName.parseChunk(PREFIX, c.objectKey())
                        .isPresent()).count();
    }

    @Test
    void partsUploadedOutOfOrderAreWrittenOnceAndCommittedTogether() throws IOException {
        Hybris h = fx.open();
        h.put(C, "film", "old".getBytes());
        PartUploads parts = PartUploads.of(h);
        byte[] p1 = value(CHUNK + CHUNK / 2, 1); // two chunks, the second short
        byte[] p2 = value(CHUNK, 2);              // one full chunk
        byte[] p3 = value(10, 3);                 // the short last part
        PartUpload upload = parts.start(C, "film");
        fx.resetCalls();
        UploadedPart u3 = parts.upload(upload, 3, in(p3), p3.length);
        UploadedPart u1 = parts.upload(upload, 1, in(p1), -1);
        UploadedPart u2 = parts.upload(upload, 2, in(p2), p2.length);

        assertThat(h.get(C, "film")).hasValueSatisfying(v -> assertThat(v).isEqualTo("old".getBytes()));
        assertThat(chunkPuts()).as("4 chunks, each on f+1 = 2 clouds, written once").isEqualTo(8);
        assertThat(List.of(u1.size(), u2.size(), u3.size())).containsExactly((long) p1.length, (long) p2.length, 10L);

        VersionInfo v = parts.complete(upload, List.of(u1, u2, u3), PutOptions.none().withMetadata(Map.of("k", "v")));

        assertThat(chunkPuts()).as("completing writes no chunk again").isEqualTo(8);
        assertThat(v.version()).isEqualTo(upload.version());
        assertThat(v.size()).isEqualTo(p1.length + p2.length + 10L);
        assertThat(v.metadata()).containsEntry("k", "v");
        byte[] whole = concat(p1, p2, p3);
        assertThat(h.get(C, "film")).hasValueSatisfying(b -> assertThat(b).isEqualTo(whole));
        assertThat(read(h, "film", ByteRange.of(CHUNK - 3, CHUNK + CHUNK / 2 + 4)))
                .as("a range across the chunks and parts").isEqualTo(java.util.Arrays.copyOfRange(whole, CHUNK - 3,
                        CHUNK + CHUNK / 2 + 5));
        assertThat(read(h, "film", ByteRange.suffix(12))).isEqualTo(java.util.Arrays.copyOfRange(whole,
                whole.length - 12, whole.length));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(fx.objectsOf("film"))
                .as("the old version is collected; the new one is its manifest and 4 chunks on 2 clouds each")
                .hasSize(2 + 8).allMatch(n -> n.contains(upload.version())));
        assertThat(h.sweepOrphans().deleted()).as("nothing of a completed upload is an orphan").isZero();
    }

    @Test
    void partsLeftOutOrReplacedAreDeletedAfterCompletion() {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart first = parts.upload(upload, 1, in(value(CHUNK, 1)), CHUNK);
        UploadedPart retried = parts.upload(upload, 1, in(value(CHUNK, 11)), CHUNK);
        UploadedPart leftOut = parts.upload(upload, 2, in(value(CHUNK, 2)), CHUNK);
        UploadedPart last = parts.upload(upload, 3, in(value(5, 3)), 5);
        assertThat(chunkIndexes("k")).hasSize(8);

        parts.complete(upload, List.of(UploadedPart.fromBytes(retried.toBytes()), last), PutOptions.none());

        assertThat(h.get(C, "k")).hasValueSatisfying(b -> assertThat(b).isEqualTo(concat(value(CHUNK, 11),
                value(5, 3))));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(chunkIndexes("k"))
                .as("only the completed parts' chunks stay").hasSize(4));
        assertThat(parts.complete(upload, List.of(first, leftOut), PutOptions.none()).version())
                .as("completed already: completing again returns the committed version and changes nothing")
                .isEqualTo(upload.version());
        assertThat(h.get(C, "k")).hasValueSatisfying(b -> assertThat(b).hasSize(CHUNK + 5));
    }

    @Test
    void partsFromTwoClientsWithEnvelopeEncryptionAndManyThreads() throws Exception {
        EnvelopeKeyProvider keys = EnvelopeKeyProvider.of(Map.of("kek", EnvelopeKeyProvider.generateKek()), "kek");
        Hybris a = fx.open(b -> b.encryption(keys));
        Hybris b = fx.open(x -> x.encryption(keys).clientId("w2"));
        PartUpload upload = PartUploads.of(a).start(C, "secret");
        PartUpload sameUpload = new PartUpload(C, "secret", upload.token());
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<Future<UploadedPart>> futures = new ArrayList<>();
        try {
            for (int i = 1; i <= n; i++) {
                int part = i;
                Hybris client = i % 2 == 0 ? a : b;
                futures.add(pool.submit(() -> PartUploads.of(client).upload(sameUpload, part,
                        in(value(CHUNK + part, part)), CHUNK + part)));
            }
            List<UploadedPart> uploaded = new ArrayList<>();
            for (Future<UploadedPart> f : futures) {
                uploaded.add(f.get());
            }
            PartUploads.of(b).complete(sameUpload, uploaded, PutOptions.none());
        } finally {
            pool.shutdownNow();
        }
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 1; i <= n; i++) {
            expected.writeBytes(value(CHUNK + i, i));
        }
        assertThat(a.get(C, "secret")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected.toByteArray()));
        byte[] marker = java.util.Arrays.copyOf(value(CHUNK + 1, 1), 64);
        for (io.hybris.cloud.InMemoryCloudStore cloud : fx.raw) {
            for (io.hybris.spi.CloudObject o : cloud.list(PREFIX)) {
                byte[] stored = cloud.get(o.key(), Long.MAX_VALUE).orElseThrow();
                assertThat(TestBytes.contains(stored, marker)).as("plaintext in " + o.key() + " on " + cloud.id())
                        .isFalse();
            }
        }
    }

    @Test
    void anUploadStartedLaterWinsAndTheEarlierOneFailsAfterIt() {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload early = parts.start(C, "k");
        PartUpload late = parts.start(C, "k");
        UploadedPart e1 = parts.upload(early, 1, in(value(100, 1)), 100);
        UploadedPart l1 = parts.upload(late, 1, in(value(100, 2)), 100);
        h.put(C, "k", "written meanwhile".getBytes()); // orders before both uploads

        VersionInfo won = parts.complete(late, List.of(l1), PutOptions.none());
        assertThatThrownBy(() -> parts.complete(early, List.of(e1), PutOptions.none()))
                .isInstanceOf(PreconditionFailedException.class).hasMessageContaining("newer version")
                .satisfies(e -> assertThat(((PreconditionFailedException) e).current())
                        .hasValueSatisfying(c -> assertThat(c.version()).isEqualTo(won.version())));

        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value(100, 2)));
        assertThat(parts.complete(late, List.of(l1), PutOptions.none()).version())
                .as("completing again returns the version").isEqualTo(won.version());
        assertThatThrownBy(() -> parts.complete(early, List.of(l1), PutOptions.none()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("another upload");
    }

    /**
     * A complete repeated after a later write (its first answer lost) cannot tell that its first attempt committed:
     * it must not say "nothing was committed; upload again", which would have the caller put the old value back
     * over the newer one.
     */
    @Test
    void aCompleteRepeatedAfterALaterWriteDoesNotClaimNothingWasCommitted() {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, in(value(100, 1)), 100);
        parts.complete(upload, List.of(p1), PutOptions.none());
        VersionInfo later = h.put(C, "k", "written later".getBytes());

        assertThatThrownBy(() -> parts.complete(upload, List.of(p1), PutOptions.none()))
                .isInstanceOf(PreconditionFailedException.class)
                .hasMessageContaining("may have committed").hasMessageNotContaining("nothing was committed")
                .satisfies(e -> assertThat(((PreconditionFailedException) e).current())
                        .hasValueSatisfying(c -> assertThat(c.version()).isEqualTo(later.version())));
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo("written later".getBytes()));
    }

    @Test
    void abortDeletesThePartsAndLeavesTheValue() {
        Hybris h = fx.open();
        h.put(C, "k", "kept".getBytes());
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        parts.upload(upload, 1, in(value(CHUNK * 2, 1)), CHUNK * 2);
        assertThat(chunkIndexes("k")).hasSize(4);

        parts.abort(upload);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(chunkIndexes("k")).isEmpty());
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo("kept".getBytes()));
        PartUpload done = parts.start(C, "k");
        parts.complete(done, List.of(parts.upload(done, 1, in(value(9, 9)), 9)), PutOptions.none());
        assertThatThrownBy(() -> parts.abort(done)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("was completed");
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value(9, 9)));
    }

    @Test
    void anUploadIdleForHalfTheGracePeriodCannotComplete() {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-24T00:00:00Z"));
        Clock clock = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
        Hybris h = fx.open(b -> b.clock(clock).gcGrace(Duration.ofHours(1)));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, in(value(100, 1)), 100);
        now.set(now.get().plus(Duration.ofMinutes(31)));

        assertThatThrownBy(() -> parts.complete(upload, List.of(p1), PutOptions.none()))
                .isInstanceOf(UploadExpiredException.class).hasMessageContaining("hybris.gc.grace");
        assertThat(h.get(C, "k")).isEmpty();
    }

    @Test
    void badInputNamesWhatIsWrong() {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p2 = parts.upload(upload, 2, in(value(10, 2)), 10);
        UploadedPart p1 = parts.upload(upload, 1, in(value(10, 1)), 10);
        assertThatThrownBy(() -> new PartUpload(C, "k", "not-a-token")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("upload token");
        assertThatThrownBy(() -> parts.upload(upload, 0, in(new byte[1]), 1))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("1 to 10000");
        assertThatThrownBy(() -> parts.upload(upload, 10_001, in(new byte[1]), 1))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("1 to 10000");
        assertThatThrownBy(() -> parts.upload(upload, 3, in(new byte[5]), 6))
                .isInstanceOf(io.hybris.ValueLengthMismatchException.class);
        assertThatThrownBy(() -> parts.complete(upload, List.of(p2, p1), PutOptions.none()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("increasing order");
        assertThatThrownBy(() -> parts.complete(upload, List.of(), PutOptions.none()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("names no part");
        assertThatThrownBy(() -> UploadedPart.fromBytes(new byte[] {1, 2, 3}))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("part receipt");
        assertThat(h.get(C, "k")).isEmpty();
        assertThat(parts.complete(upload, List.of(p1, p2), PutOptions.ifAbsent()).size()).isEqualTo(20);
    }
}
