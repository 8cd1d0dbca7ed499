/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.testkit.UnavailableCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.crypto.SecretKey;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Erasure coding combined with envelope encryption, chunked values, uploads in parts, TPUT, migration, deep scrub,
 * KEK rotation, the change feed and clients of other chunk sizes, k and policies: every value (whole, streamed, or a
 * range) reads back exactly, with any one cloud down.
 */
class CodedEncryptedChunkedAcrossConfigurationsTest {
    private static final int CHUNK = 64 << 10;
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final Map<String, InMemoryCloudStore> raw = new LinkedHashMap<>();
    private final Map<String, UnavailableCloudStore> down = new LinkedHashMap<>();
    private final List<Hybris> clients = new ArrayList<>();
    private final Map<String, byte[]> written = new LinkedHashMap<>();
    private final SecretKey kek = EnvelopeKeyProvider.generateKek();

    CodedEncryptedChunkedAcrossConfigurationsTest() {
        for (String id : List.of("c0", "c1", "c2", "c3", "c4")) {
            InMemoryCloudStore c = new InMemoryCloudStore(id);
            raw.put(id, c);
            UnavailableCloudStore d = UnavailableCloudStore.of(c);
            d.setActive(false);
            down.put(id, d);
        }
    }

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    private Hybris client(int k, int chunk, ErasurePolicy policy, String... ids) {
        return client(k, chunk, policy, EnvelopeKeyProvider.of(Map.of("kek1", kek), "kek1"), ids);
    }

    private Hybris client(int k, int chunk, ErasurePolicy policy, EnvelopeKeyProvider keys, String... ids) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(20))
                .timerMin(Duration.ofMillis(200)).chunkThreshold(chunk).chunkSize(chunk)
                .erasurePolicy(policy).erasureDataChunks(k).erasureCoder("java").probeInterval(Duration.ZERO)
                .encryption(keys);
        for (String id : ids) {
            b.cloud(down.get(id));
        }
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    private static byte[] value(int size, int seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    private void write(Hybris h, String tag) throws Exception {
        for (int i = 0; i < 6; i++) {
            String key = tag + i;
            byte[] v = value(i % 2 == 0 ? 1000 + i : 2 * CHUNK + 777 * i, i + tag.hashCode());
            if (i % 3 == 2) {
                PartUploads parts = PartUploads.of(h);
                var up = parts.start("c", key);
                int half = v.length / 2;
                var p1 = parts.upload(up, 1, new ByteArrayInputStream(v, 0, half), half);
                var p2 = parts.upload(up, 2, new ByteArrayInputStream(v, half, v.length - half), v.length - half);
                parts.complete(up, List.of(p1, p2), PutOptions.none());
            } else {
                h.put("c", key, new ByteArrayInputStream(v), v.length);
            }
            written.put(key, v);
        }
    }

    private void assertEverythingReads(Hybris h) {
        written.forEach((key, v) -> assertThat(h.get("c", key)).as(key).hasValueSatisfying(got ->
                assertThat(got).isEqualTo(v)));
    }

    @Test
    void valuesOfEveryConfigurationReadBackWithAnyCloudDown() throws Exception {
        write(client(3, CHUNK, ErasurePolicy.ERASURE, "c0", "c1", "c2", "c3", "c4"), "k3-");
        write(client(2, CHUNK * 2, ErasurePolicy.ERASURE, "c0", "c1", "c2", "c3", "c4"), "k2-");
        write(client(2, CHUNK * 3, ErasurePolicy.REPLICATION, "c0", "c1", "c2", "c3", "c4"), "r-");
        Hybris reader = client(2, CHUNK, ErasurePolicy.REPLICATION, "c0", "c1", "c2", "c3", "c4");
        for (String id : raw.keySet()) {
            down.get(id).setActive(true);
            assertEverythingReads(reader);
            down.get(id).setActive(false);
        }
    }

    @Test
    void migrateOffACloudThenDropItAndReadWithAnotherDown() throws Exception {
        Hybris h = client(2, CHUNK, ErasurePolicy.ERASURE, "c0", "c1", "c2", "c3", "c4");
        write(h, "a");
        ScrubReport moved = h.migrate("c1", "c4", ScrubOptions.listing());
        assertThat(moved.unrecoverable()).isZero();
        assertThat(moved.degraded()).isZero();
        Hybris without = client(2, CHUNK, ErasurePolicy.ERASURE, "c0", "c2", "c3", "c4");
        ScrubReport check = without.scrub(ScrubOptions.listing().deep(true));
        assertThat(check.healthy()).isEqualTo(written.size());
        for (String id : List.of("c0", "c2", "c3", "c4")) {
            down.get(id).setActive(true);
            assertEverythingReads(without);
            down.get(id).setActive(false);
        }
    }

    @Test
    void deepScrubRepairsFragmentsCorruptedInPlaceThenAnotherCloudMayFail() throws Exception {
        Hybris h = client(2, CHUNK, ErasurePolicy.ERASURE, "c0", "c1", "c2", "c3");
        write(h, "d");
        InMemoryCloudStore c2 = raw.get("c2");
        for (CloudObject o : c2.list("hybris/")) {
            byte[] b = c2.get(o.key(), o.size()).orElseThrow();
            b[b.length / 2] ^= 1;
            c2.put(o.key(), b);
        }
        ScrubReport r = h.scrub(ScrubOptions.listing().deep(true).repair(true));
        assertThat(r.unrecoverable()).isZero();
        assertThat(r.degraded()).isZero();
        assertThat(h.scrub(ScrubOptions.listing().deep(true)).healthy()).isEqualTo(written.size());
        for (String id : List.of("c0", "c1", "c2", "c3")) {
            down.get(id).setActive(true);
            assertEverythingReads(h);
            down.get(id).setActive(false);
        }
    }

    @Test
    void rangesAndStreamsOfValuesWrittenWithAnotherChunkSizeAndK() throws Exception {
        write(client(3, CHUNK * 2, ErasurePolicy.ERASURE, "c0", "c1", "c2", "c3", "c4"), "s");
        Hybris reader = client(2, CHUNK, ErasurePolicy.THRESHOLD, "c0", "c1", "c2", "c3", "c4");
        for (int round = 0; round < 2; round++) {
            for (var e : written.entrySet()) {
                byte[] v = e.getValue();
                try (var s = reader.getStream("c", e.getKey()).orElseThrow()) {
                    assertThat(s.readAllBytes()).as(e.getKey()).isEqualTo(v);
                }
                long first = v.length / 3;
                long last = Math.min(v.length - 1, first + CHUNK * 2 + 5);
                try (var s = reader.get("c", e.getKey(), io.hybris.ByteRange.of(first, last)).orElseThrow()) {
                    assertThat(s.readAllBytes()).as(e.getKey())
                            .isEqualTo(java.util.Arrays.copyOfRange(v, (int) first, (int) last + 1));
                }
            }
        }
    }

    @Test
    void largeTputValuesAreCodedEncryptedAndTheirOverwrittenChunksCollected() throws Exception {
        Hybris h = client(2, CHUNK, ErasurePolicy.ERASURE, "c0", "c1", "c2", "c3");
        Map<String, byte[]> values = new LinkedHashMap<>();
        values.put("t1", value(3 * CHUNK + 5, 1));
        values.put("t2", value(100, 2));
        h.tput("c", values);
        values.forEach((k, v) -> assertThat(h.get("c", k)).hasValueSatisfying(g -> assertThat(g).isEqualTo(v)));
        Map<String, byte[]> again = new LinkedHashMap<>();
        again.put("t1", value(2 * CHUNK + 9, 3));
        again.put("t2", value(3 * CHUNK, 4));
        h.tput("c", again);
        again.forEach((k, v) -> assertThat(h.get("c", k)).hasValueSatisfying(g -> assertThat(g).isEqualTo(v)));
        String v1 = h.describe("c", "t1").orElseThrow().version();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (InMemoryCloudStore c : raw.values()) {
                assertThat(c.list("hybris/c/t1#").stream().map(CloudObject::key)
                        .filter(n -> !n.contains(v1.substring(0, v1.indexOf('_')) + "_")))
                        .as("objects of superseded t1 versions on " + c.id()).isEmpty();
            }
        });
        assertThat(h.scrub(ScrubOptions.listing().deep(true)).healthy()).isEqualTo(2);
    }

    @Test
    void kekRotationWithAnOpenUploadInPartsThenOnlyTheNewKekReadsEverything() throws Exception {
        SecretKey kek2 = EnvelopeKeyProvider.generateKek();
        Hybris old = client(2, CHUNK, ErasurePolicy.ERASURE, "c0", "c1", "c2", "c3");
        write(old, "r");
        PartUploads parts = PartUploads.of(old);
        var up = parts.start("c", "open");
        byte[] v = value(3 * CHUNK + 11, 77);
        var p1 = parts.upload(up, 1, new ByteArrayInputStream(v, 0, CHUNK + 3), CHUNK + 3);
        Hybris both = client(2, CHUNK, ErasurePolicy.ERASURE,
                EnvelopeKeyProvider.of(Map.of("kek1", kek, "kek2", kek2), "kek2"), "c0", "c1", "c2", "c3");
        var p2 = PartUploads.of(both).upload(up, 2, new ByteArrayInputStream(v, CHUNK + 3, v.length - CHUNK - 3),
                v.length - CHUNK - 3);
        assertThat(both.rewrapDataKeys().unreadable()).isZero();
        PartUploads.of(both).complete(up, List.of(p1, p2), PutOptions.none());
        written.put("open", v);
        Hybris only = client(2, CHUNK, ErasurePolicy.ERASURE, EnvelopeKeyProvider.of(Map.of("kek2", kek2), "kek2"),
                "c0", "c1", "c2", "c3");
        assertEverythingReads(only);
        ScrubReport moved = only.migrate("c0", "c3", ScrubOptions.listing());
        assertThat(moved.degraded() + moved.unrecoverable()).isZero();
        down.get("c1").setActive(true);
        assertEverythingReads(only);
    }

    @Test
    void rangesAcrossPartsOfOddSizesUploadedByClientsOfDifferentK() throws Exception {
        Hybris a = client(2, CHUNK, ErasurePolicy.ERASURE, "c0", "c1", "c2", "c3", "c4");
        Hybris b = client(3, CHUNK * 2, ErasurePolicy.REPLICATION, "c0", "c1", "c2", "c3", "c4");
        int[] sizes = {CHUNK + 1, 7, 2 * CHUNK - 3, 1, 3 * CHUNK + 5};
        int total = java.util.Arrays.stream(sizes).sum();
        byte[] v = value(total, 5);
        var up = PartUploads.of(a).start("c", "odd");
        List<io.hybris.UploadedPart> parts = new ArrayList<>();
        int off = 0;
        for (int i = 0; i < sizes.length; i++) {
            Hybris h = i % 2 == 0 ? a : b;
            parts.add(PartUploads.of(h).upload(up, i + 1, new ByteArrayInputStream(v, off, sizes[i]), sizes[i]));
            off += sizes[i];
        }
        PartUploads.of(b).complete(up, parts, PutOptions.none());
        Hybris reader = client(2, CHUNK, ErasurePolicy.THRESHOLD, "c0", "c1", "c2", "c3", "c4");
        assertThat(reader.get("c", "odd")).hasValueSatisfying(g -> assertThat(g).isEqualTo(v));
        Random r = new Random(3);
        for (int i = 0; i < 60; i++) {
            int first = r.nextInt(total);
            int last = Math.min(total - 1, first + r.nextInt(3 * CHUNK));
            try (var s = reader.get("c", "odd", io.hybris.ByteRange.of(first, last)).orElseThrow()) {
                assertThat(s.readAllBytes()).as(first + "-" + last)
                        .isEqualTo(java.util.Arrays.copyOfRange(v, first, last + 1));
            }
        }
        down.get("c2").setActive(true);
        assertThat(reader.get("c", "odd")).hasValueSatisfying(g -> assertThat(g).isEqualTo(v));
        assertThat(reader.scrub(ScrubOptions.listing().deep(true)).degraded()).isZero();
    }

    @Test
    void theChangeFeedListsExactlyTheCommitsOfCodedChunkedWrites() throws Exception {
        Hybris h = client(2, CHUNK, ErasurePolicy.ERASURE, "c0", "c1", "c2", "c3");
        io.hybris.ChangeCursor start = h.latestCursor("c");
        byte[] big = value(2 * CHUNK + 3, 1);
        var v1 = h.put("c", "x", new ByteArrayInputStream(big), big.length);
        assertThat(h.delete("c", "absent")).isEmpty();
        h.delete("c", "x");
        assertThat(h.delete("c", "x")).isEmpty();
        Map<String, byte[]> t = new LinkedHashMap<>();
        t.put("y", big);
        t.put("z", new byte[] {1});
        var tv = h.tput("c", t);
        try {
            h.put("c", "y", new ByteArrayInputStream(big), big.length, PutOptions.ifMatch(v1.version()));
        } catch (io.hybris.PreconditionFailedException expected) {
            // nothing committed
        }
        var up = PartUploads.of(h).start("c", "p");
        var part = PartUploads.of(h).upload(up, 1, new ByteArrayInputStream(big), big.length);
        var pv = PartUploads.of(h).complete(up, List.of(part), PutOptions.none());
        var page = h.changes("c", "", start, 100);
        assertThat(page.changes().stream().map(c -> c.key() + (c.isDeletion() ? "-" : "+")))
                .containsExactly("x+", "x-", "y+", "z+", "p+");
        assertThat(page.changes().get(2).version()).isEqualTo(tv.get("y"));
        assertThat(page.changes().get(4).version()).isEqualTo(pv);
        assertThat(page.changes().get(0).version()).isEqualTo(v1);
    }
}
