/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.InvalidRequestException;
import io.hybris.ValueLengthMismatchException;
import io.hybris.ValueSourceException;
import io.hybris.ValueTooLargeException;
import io.hybris.VersionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.failingAfter;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Streams that lie about their length, throw, or are too large: each put fails with its own exception, commits
 * nothing (a new key stays absent, an old value stays current), and leaves no object of the key behind: its chunks
 * are deleted by the failed put itself, and the orphan sweep (grace 0) finds nothing more.
 */
class StreamingBadInputTest {
    private static final int L = 5 * CHUNK + 17;
    private static final long LIMIT = 4L * CHUNK;

    private final StreamingFixture fx = new StreamingFixture();
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        fx.close();
    }

    private Hybris open() {
        return fx.open(b -> b.gcGrace(Duration.ZERO).maxValueSize(LIMIT).chunkParallelUploads(4));
    }

    /** A put that fails, and what to check of its exception. */
    private record Bad(String name, PutCall put, Consumer<Throwable> check) {
    }

    private interface PutCall {
        void run(Hybris h, String key) throws Exception;
    }

    private static final byte[] V = value(L, 1);

    private static List<Bad> cases() {
        return List.of(
                new Bad("chunked, stream shorter than declared",
                        (h, k) -> h.put(C, k, new ByteArrayInputStream(V, 0, 3 * CHUNK + 5), 3L * CHUNK + 6),
                        e -> assertThat(e).isInstanceOfSatisfying(ValueLengthMismatchException.class, m -> {
                            assertThat(m.declared()).isEqualTo(3L * CHUNK + 6);
                            assertThat(m.actual()).isEqualTo(3L * CHUNK + 5);
                        })),
                new Bad("chunked, stream longer than declared",
                        (h, k) -> h.put(C, k, new ByteArrayInputStream(V, 0, 3 * CHUNK + 7), 3L * CHUNK + 6),
                        e -> assertThat(e).isInstanceOfSatisfying(ValueLengthMismatchException.class, m -> {
                            assertThat(m.declared()).isEqualTo(3L * CHUNK + 6);
                            assertThat(m.actual()).isGreaterThan(3L * CHUNK + 6);
                        })),
                new Bad("whole, stream shorter than declared",
                        (h, k) -> h.put(C, k, new ByteArrayInputStream(V, 0, 999), 1000),
                        e -> assertThat(e).isInstanceOfSatisfying(ValueLengthMismatchException.class,
                                m -> assertThat(m.actual()).isEqualTo(999))),
                new Bad("whole, stream longer than declared",
                        (h, k) -> h.put(C, k, new ByteArrayInputStream(V, 0, 1001), 1000),
                        e -> assertThat(e).isInstanceOf(ValueLengthMismatchException.class)),
                new Bad("chunked, stream throws (known length)",
                        (h, k) -> h.put(C, k, failingAfter(V, 3L * CHUNK + 5), LIMIT),
                        e -> assertThat(e).isInstanceOf(ValueSourceException.class)
                                .hasCauseInstanceOf(IOException.class).hasMessageContaining("disk on fire")),
                new Bad("chunked, stream throws (unknown length)",
                        (h, k) -> h.put(C, k, failingAfter(V, 2L * CHUNK + 1), -1),
                        e -> assertThat(e).isInstanceOf(ValueSourceException.class)),
                new Bad("whole, stream throws",
                        (h, k) -> h.put(C, k, failingAfter(V, 10), 100),
                        e -> assertThat(e).isInstanceOf(ValueSourceException.class)),
                new Bad("declared above the limit",
                        (h, k) -> h.put(C, k, new ByteArrayInputStream(V), L),
                        e -> assertThat(e).isInstanceOfSatisfying(ValueTooLargeException.class,
                                t -> assertThat(t.limit()).isEqualTo(LIMIT))),
                new Bad("unknown length, above the limit",
                        (h, k) -> h.put(C, k, new ByteArrayInputStream(V), -1),
                        e -> assertThat(e).isInstanceOfSatisfying(ValueTooLargeException.class,
                                t -> assertThat(t.limit()).isEqualTo(LIMIT))),
                new Bad("byte[] above the limit",
                        (h, k) -> h.put(C, k, V),
                        e -> assertThat(e).isInstanceOf(ValueTooLargeException.class)),
                new Bad("negative length",
                        (h, k) -> h.put(C, k, new ByteArrayInputStream(V), -2),
                        e -> assertThat(e).isInstanceOf(InvalidRequestException.class)),
                new Bad("null stream",
                        (h, k) -> h.put(C, k, (InputStream) null, 5),
                        e -> assertThat(e).isInstanceOf(InvalidRequestException.class)),
                new Bad("missing file",
                        (h, k) -> h.put(C, k, Path.of("no-such-file-" + k)),
                        e -> assertThat(e).isInstanceOf(InvalidRequestException.class)
                                .hasMessageContaining("no such file")));
    }

    @Test
    void aBadPutOfANewKeyCommitsNothingAndTheSweepFindsNothingOfIt() {
        Hybris h = open();
        int i = 0;
        for (Bad bad : cases()) {
            String key = "new" + i++;
            Throwable thrown = catchThrowable(() -> bad.put().run(h, key));
            assertThat(thrown).as(bad.name()).isNotNull();
            bad.check().accept(thrown);

            assertThat(h.describe(C, key)).as(bad.name()).isEmpty();
            assertThat(h.getStream(C, key)).as(bad.name()).isEmpty();
        }
        h.sweepOrphans();
        // a chunk upload still running when its put failed deletes its chunk itself once stored (in the background)
        for (int k = 0; k < i; k++) {
            String key = "new" + k;
            String name = cases().get(k).name();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(fx.objectsOf(key)).as(name).isEmpty());
        }
    }

    @Test
    void aBadPutOverAnOldChunkedValueKeepsItIntactAndTheSweepLeavesOnlyIt() throws Exception {
        Hybris h = open();
        int i = 0;
        for (Bad bad : cases()) {
            String key = "old" + i++;
            byte[] old = value(3 * CHUNK + 1, i);
            VersionInfo before = h.put(C, key, new ByteArrayInputStream(old), old.length);
            List<String> oldObjects = fx.objectsOf(key);

            Throwable thrown = catchThrowable(() -> bad.put().run(h, key));
            assertThat(thrown).as(bad.name()).isNotNull();
            bad.check().accept(thrown);

            assertThat(h.describe(C, key)).as(bad.name()).contains(before);
            assertThat(h.get(C, key)).as(bad.name()).hasValueSatisfying(v -> assertThat(v).isEqualTo(old));
            h.sweepOrphans();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(fx.objectsOf(key)).as(bad.name())
                    .containsExactlyInAnyOrderElementsOf(oldObjects));
        }
    }

    /**
     * The failed put deletes what it uploaded itself, including chunks whose upload finished before the source
     * failed but which the put had not yet collected (the stream waits until they are stored before it throws).
     */
    @Test
    void aFailedChunkedPutDeletesEveryChunkItStoredWithoutTheSweep() {
        Hybris h = open();
        for (int chunks : new int[] {1, 3}) {
            String key = "fails-after-" + chunks;
            InputStream source = new java.io.FilterInputStream(failingAfter(V, (long) chunks * CHUNK + 1)) {
                private long read;

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    if (len > 0 && read > (long) chunks * CHUNK) {
                        // every chunk handed out so far is stored on f+1 clouds before the stream fails
                        await().atMost(Duration.ofSeconds(20)).until(() -> fx.objectsOf(key).size() == 2 * chunks);
                    }
                    int n = super.read(b, off, len);
                    read += Math.max(0, n);
                    return n;
                }
            };
            Throwable thrown = catchThrowable(() -> h.put(C, key, source, LIMIT));
            assertThat(thrown).isInstanceOf(ValueSourceException.class);

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(fx.objectsOf(key)).isEmpty());
        }
    }

    /**
     * A value of exactly {@code hybris.value.max-size} bytes is within the limit, whether its length is declared or
     * not, and reads back whole; one byte more of a stream of unknown length is refused. Guards the limit's
     * boundary in ValueSource (at most the limit, not below it).
     */
    @Test
    void aValueOfExactlyTheLimitIsAcceptedAndOneByteMoreIsNot() throws Exception {
        Hybris h = open();
        byte[] atLimit = java.util.Arrays.copyOf(V, (int) LIMIT);
        h.put(C, "declared", new ByteArrayInputStream(atLimit), LIMIT);
        h.put(C, "unknown", new ByteArrayInputStream(atLimit), -1);
        assertThat(h.get(C, "declared")).hasValueSatisfying(got -> assertThat(got).isEqualTo(atLimit));
        assertThat(h.get(C, "unknown")).hasValueSatisfying(got -> assertThat(got).isEqualTo(atLimit));

        Throwable over = catchThrowable(() -> h.put(C, "over", new ByteArrayInputStream(V, 0, (int) LIMIT + 1), -1));
        assertThat(over).isInstanceOfSatisfying(ValueTooLargeException.class,
                t -> assertThat(t.limit()).isEqualTo(LIMIT));
        assertThat(over).hasMessageContaining("at least " + (LIMIT + 1) + " bytes");
        assertThat(h.describe(C, "over")).isEmpty();
    }
}
