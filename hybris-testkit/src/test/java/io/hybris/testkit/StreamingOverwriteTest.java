/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ConcurrentOverwriteException;
import io.hybris.Hybris;
import io.hybris.ReadSettings;
import io.hybris.ValueStream;
import io.hybris.ValueStreamException;
import io.hybris.VersionInfo;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.PREFIX;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * A chunked value overwritten or deleted: garbage collection removes every chunk and the manifest of the superseded
 * version, and a reader streaming the old version meanwhile gets all of it or a {@link ValueStreamException} caused
 * by {@link ConcurrentOverwriteException}, never bytes of two versions.
 */
class StreamingOverwriteTest {
    private static final int L = 8 * CHUNK + 3;

    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    /** The sequence number of the version an object (a version's own object or a chunk) belongs to. */
    private static long sequenceOf(String name) {
        return VersionName.parse(PREFIX, name).or(() -> VersionName.parseChunk(PREFIX, name).map(VersionName.Chunk::version))
                .orElseThrow().sn();
    }

    private void awaitOnlyVersion(String key, VersionInfo current, int expectedObjects) {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            List<String> objects = fx.objectsOf(key);
            assertThat(objects).allSatisfy(n -> assertThat(sequenceOf(n)).as(n).isEqualTo(current.sequence()));
            assertThat(objects).hasSize(expectedObjects);
        });
    }

    @Test
    void overwritingAndDeletingAChunkedValueCollectsEveryChunkAndTheManifest() throws Exception {
        Hybris h = fx.open();
        VersionInfo first = h.put(C, "k", new ByteArrayInputStream(value(L, 1)), L);
        assertThat(fx.objectsOf("k")).hasSize(2 * 9 + 2);

        VersionInfo second = h.put(C, "k", new ByteArrayInputStream(value(3 * CHUNK, 2)), -1);
        awaitOnlyVersion("k", second, 2 * 3 + 2);
        assertThat(second.sequence()).isGreaterThan(first.sequence());

        h.put(C, "k", value(10, 3)); // a whole value replaces a chunked one
        VersionInfo whole = h.describe(C, "k").orElseThrow();
        awaitOnlyVersion("k", whole, 2);

        VersionInfo third = h.put(C, "k", new ByteArrayInputStream(value(2 * CHUNK + 1, 4)), -1);
        awaitOnlyVersion("k", third, 2 * 3 + 2);

        h.delete(C, "k");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(fx.objectsOf("k")).isEmpty());
        assertThat(fx.objects().values()).allSatisfy(l -> assertThat(l).isEmpty());
    }

    @Test
    void aReaderOfACollectedVersionFailsWithConcurrentOverwriteAfterAPrefixOfTheOldValue() throws Exception {
        Hybris h = fx.open(b -> b.chunkReadAhead(1));
        byte[] old = value(L, 5);
        h.put(C, "k", new ByteArrayInputStream(old), L);

        try (ValueStream s = h.getStream(C, "k").orElseThrow()) {
            byte[] head = s.readNBytes(CHUNK + 10);
            assertThat(head).isEqualTo(Arrays.copyOf(old, CHUNK + 10));

            VersionInfo newer = h.put(C, "k", new ByteArrayInputStream(value(L, 6)), L);
            awaitOnlyVersion("k", newer, 2 * 9 + 2);

            ByteArrayOutputStream rest = new ByteArrayOutputStream();
            ValueStreamException e = catchThrowableOfType(() -> copy(s, rest), ValueStreamException.class);
            assertThat(e).isNotNull();
            assertThat(e.getCause()).isInstanceOf(ConcurrentOverwriteException.class);
            byte[] all = concat(head, rest.toByteArray());
            assertThat(all.length).isLessThan(L);
            assertThat(all).isEqualTo(Arrays.copyOf(old, all.length));
        }
    }

    /**
     * With {@code hybris.get.superseded-retention}, the writer leaves the version it replaced for that long: a stream
     * of it already under way, in another client, reads it to its end (without it, the case above fails); the old
     * version is collected once the retention has passed.
     */
    @Test
    void aRetainedSupersededVersionIsReadToItsEndThenCollected() throws Exception {
        Hybris writer = fx.open(b -> b.reads(ReadSettings.builder().hedge(false)
                .supersededRetention(Duration.ofSeconds(4)).build()));
        Hybris reader = fx.open(b -> b.clientId("r1").chunkReadAhead(1));
        byte[] old = value(L, 7);
        writer.put(C, "k", new ByteArrayInputStream(old), L);
        try (ValueStream s = reader.getStream(C, "k").orElseThrow()) {
            byte[] head = s.readNBytes(CHUNK + 10);
            VersionInfo newer = writer.put(C, "k", new ByteArrayInputStream(value(L, 8)), L);
            assertThat(fx.objectsOf("k")).as("the old version is still there").hasSize(2 * (2 * 9 + 2));
            byte[] all = concat(head, s.readAllBytes());
            assertThat(all).as("the stream of the replaced version, read to its end").isEqualTo(old);
            awaitOnlyVersion("k", newer, 2 * 9 + 2);
        }
    }

    /** Readers stream while a writer overwrites: each read is a whole version, or a prefix of one and the error. */
    @Test
    void concurrentReadersNeverMixVersions() throws Exception {
        Hybris writer = fx.open();
        Hybris reader = fx.open(b -> b.clientId("r1").chunkReadAhead(1));
        Map<Long, byte[]> values = new ConcurrentHashMap<>();
        byte[] v0 = value(4 * CHUNK + 1, 100);
        values.put(writer.put(C, "k", new ByteArrayInputStream(v0), -1).sequence(), v0);
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> writes = pool.submit(() -> {
                int n = 0;
                while (!stop.get()) {
                    byte[] v = value(4 * CHUNK + 1, 101 + n++);
                    values.put(writer.put(C, "k", new ByteArrayInputStream(v), v.length).sequence(), v);
                }
                return n;
            });
            Future<int[]> reads = pool.submit(() -> {
                int whole = 0;
                int failed = 0;
                for (int i = 0; i < 40; i++) {
                    ByteArrayOutputStream got = new ByteArrayOutputStream();
                    long version;
                    try (ValueStream s = reader.getStream(C, "k").orElseThrow()) {
                        version = s.version().sequence();
                        try {
                            byte[] buf = new byte[CHUNK / 3];
                            for (int n; (n = s.read(buf)) >= 0; ) {
                                got.write(buf, 0, n);
                                Thread.yield();
                            }
                            whole++;
                        } catch (ValueStreamException e) {
                            assertThat(e.getCause()).isInstanceOf(ConcurrentOverwriteException.class);
                            failed++;
                        }
                    }
                    long seq = version;
                    await().atMost(Duration.ofSeconds(20)).until(() -> values.containsKey(seq));
                    byte[] expected = values.get(seq);
                    byte[] bytes = got.toByteArray();
                    assertThat(bytes).isEqualTo(Arrays.copyOf(expected, bytes.length));
                }
                return new int[] {whole, failed};
            });
            int[] outcome = reads.get(120, TimeUnit.SECONDS);
            stop.set(true);
            assertThat(writes.get(60, TimeUnit.SECONDS)).isPositive();
            assertThat(outcome[0] + outcome[1]).isEqualTo(40);
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    private static void copy(ValueStream s, ByteArrayOutputStream out) throws IOException {
        byte[] buf = new byte[8192];
        for (int n; (n = s.read(buf)) >= 0; ) {
            out.write(buf, 0, n);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
