/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.ByteRange;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ErasurePolicy;
import io.hybris.ReadSettings;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.VersionName;
import io.hybris.testkit.CorruptingCloudStore;
import io.hybris.testkit.RecordingCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Chunked values whose chunks are erasure-coded (k=2, f=1 over three clouds): each chunk is a fragment per cloud,
 * the manifest replicated; round trips at chunk boundaries, plain and encrypted, ranges, a corrupting cloud, GC.
 */
class ErasureCodedStreamingTest {
    private static final int CHUNK = 64 << 10;
    private static final String C = "media";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    private final List<Hybris> clients = new ArrayList<>();

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    private static byte[] value(int size, int seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    private Hybris open(List<? extends io.hybris.spi.CloudStore> clouds, boolean encrypted) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata)
                .erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(2).erasureCoder("java")
                .timerInitial(Duration.ofSeconds(10)).reads(ReadSettings.builder().hedge(false).build()).timerMin(Duration.ofSeconds(10))
                .deadline(Duration.ofSeconds(30)).probeInterval(Duration.ZERO)
                .chunkSize(CHUNK).chunkThreshold(CHUNK);
        if (encrypted) {
            b.encryption(new MetadataKeyProvider());
        }
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    private List<String> chunkObjects(InMemoryCloudStore cloud) {
        return cloud.list("hybris/").stream().map(CloudObject::key)
                .filter(n -> VersionName.parseChunk("hybris/", n).isPresent()).toList();
    }

    @Test
    void chunkedValuesRoundTripWithEveryChunkCodedOnEveryCloud() throws Exception {
        for (boolean encrypted : new boolean[] {false, true}) {
            Hybris h = open(raw, encrypted);
            for (int length : new int[] {CHUNK + 1, 2 * CHUNK, 2 * CHUNK + 1, 5 * CHUNK + 17}) {
                String key = "k" + length + encrypted;
                byte[] v = value(length, length);

                VersionInfo put = h.put(C, key, new ByteArrayInputStream(v), -1);

                assertThat(put.size()).isEqualTo(length);
                assertThat(h.get(C, key)).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
                try (ValueStream s = h.getStream(C, key).orElseThrow()) {
                    assertThat(s.readAllBytes()).isEqualTo(v);
                }
                try (ValueStream s = h.get(C, key, ByteRange.of(CHUNK - 1, CHUNK)).orElseThrow()) {
                    assertThat(s.readAllBytes()).isEqualTo(Arrays.copyOfRange(v, CHUNK - 1, CHUNK + 1));
                }
                int chunks = (length + CHUNK - 1) / CHUNK;
                String prefix = VersionName.keyPrefix("hybris/", C, key);
                for (InMemoryCloudStore cloud : raw) { // k + f = 3 fragments: one per cloud per chunk
                    assertThat(chunkObjects(cloud).stream().filter(n -> n.startsWith(prefix)))
                            .as("%s on %s", key, cloud.id()).hasSize(chunks);
                }
            }
        }
    }

    @Test
    void aCorruptingCloudCostsOneMoreFragmentPerChunk() throws Exception {
        List<CorruptingCloudStore> corrupt = new ArrayList<>();
        List<RecordingCloudStore> recorded = new ArrayList<>();
        for (InMemoryCloudStore c : raw) {
            CorruptingCloudStore cc = CorruptingCloudStore.of(c);
            cc.setActive(false);
            corrupt.add(cc);
            recorded.add(RecordingCloudStore.of(cc));
        }
        Hybris h = open(recorded, false);
        byte[] v = value(4 * CHUNK + 5, 9);
        h.put(C, "k", v);
        corrupt.get(0).setActive(true);
        recorded.forEach(RecordingCloudStore::reset);

        try (ValueStream s = h.getStream(C, "k").orElseThrow()) {
            assertThat(s.readAllBytes()).isEqualTo(v);
        }

        long chunkGets = recorded.stream().flatMap(r -> r.calls().stream())
                .filter(c -> c.op() == RecordingCloudStore.Op.GET)
                .filter(c -> VersionName.parseChunk("hybris/", c.objectKey()).isPresent()).count();
        // k=2 fragments per chunk, plus at most one more where c0's corrupt fragment was among those asked
        assertThat(chunkGets).isBetween(2L * 5, 3L * 5);
    }

    @Test
    void overwritingCollectsEveryFragmentOfTheOldVersion() throws Exception {
        Hybris h = open(raw, false);
        h.put(C, "k", value(5 * CHUNK, 1));
        VersionInfo newer = h.put(C, "k", new ByteArrayInputStream(value(2 * CHUNK + 1, 2)), -1);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            for (InMemoryCloudStore cloud : raw) {
                assertThat(chunkObjects(cloud)).as(cloud.id()).hasSize(3).allSatisfy(n -> assertThat(
                        VersionName.parseChunk("hybris/", n).orElseThrow().version().sn())
                        .isEqualTo(newer.sequence()));
            }
        });
        h.delete(C, "k");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> raw.forEach(c -> assertThat(
                c.list("hybris/")).as(c.id()).isEmpty()));
    }
}
