/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.ByteRange;
import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.ValueStream;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.testkit.CorruptingCloudStore;
import io.hybris.testkit.UnavailableCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Uploads in parts, erasure-coded and encrypted, while clouds fail: each part uploaded with another cloud down or
 * corrupting what it serves; the completed value then reads back exactly, whole and by ranges across the uneven
 * parts, with any one cloud down.
 */
class CodedPartUploadsUnderFaultsTest {
    private static final int CHUNK = 64 << 10;
    private static final List<String> IDS = List.of("c0", "c1", "c2", "c3", "c4");
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final Map<String, UnavailableCloudStore> down = new LinkedHashMap<>();
    private final Map<String, CorruptingCloudStore> corrupt = new LinkedHashMap<>();
    private final List<Hybris> clients = new ArrayList<>();

    CodedPartUploadsUnderFaultsTest() {
        for (String id : IDS) {
            CorruptingCloudStore c = CorruptingCloudStore.of(new InMemoryCloudStore(id));
            c.setActive(false);
            corrupt.put(id, c);
            UnavailableCloudStore d = UnavailableCloudStore.of(c);
            d.setActive(false);
            down.put(id, d);
        }
    }

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    private Hybris client(String clientId, EnvelopeKeyProvider keys) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId(clientId).metadataStore(metadata)
                .deadline(Duration.ofSeconds(20)).timerMin(Duration.ofMillis(200)).chunkThreshold(CHUNK)
                .chunkSize(CHUNK).erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(3).erasureCoder("java")
                .probeInterval(Duration.ZERO).encryption(keys);
        IDS.forEach(id -> b.cloud(down.get(id)));
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    private static byte[] value(int size, int seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    private static byte[] read(Hybris h, ByteRange range) throws Exception {
        try (ValueStream s = h.get("c", "k", range).orElseThrow()) {
            return s.readAllBytes();
        }
    }

    @Test
    void partsUploadedWhileCloudsFailReadBackExactlyWithAnyCloudDown() throws Exception {
        EnvelopeKeyProvider keys = EnvelopeKeyProvider.of(Map.of("kek", EnvelopeKeyProvider.generateKek()), "kek");
        Hybris a = client("w1", keys);
        Hybris b = client("w2", keys);
        int[] sizes = {CHUNK + 17, 5, 3 * CHUNK - 1, CHUNK, 2 * CHUNK + 333};
        byte[] whole = new byte[Arrays.stream(sizes).sum()];
        PartUpload upload = PartUploads.of(a).start("c", "k");
        List<UploadedPart> parts = new ArrayList<>();
        int at = 0;
        for (int i = 0; i < sizes.length; i++) {
            byte[] p = value(sizes[i], i);
            System.arraycopy(p, 0, whole, at, p.length);
            at += p.length;
            String faulty = IDS.get(i);
            if (i % 2 == 0) {
                down.get(faulty).setActive(true);
            } else {
                corrupt.get(faulty).setActive(true);
            }
            // parts in decreasing order of number, from both clients
            PartUploads on = PartUploads.of(i % 2 == 0 ? a : b);
            parts.add(0, on.upload(upload, sizes.length - i, new ByteArrayInputStream(p), p.length));
            down.get(faulty).setActive(false);
            corrupt.get(faulty).setActive(false);
        }
        byte[] reversed = new byte[whole.length];
        int pos = 0;
        for (int i = sizes.length - 1; i >= 0; i--) {
            int start = Arrays.stream(sizes, 0, i).sum();
            System.arraycopy(whole, start, reversed, pos, sizes[i]);
            pos += sizes[i];
        }
        PartUploads.of(b).complete(upload, parts, PutOptions.none());

        Hybris reader = client("r1", keys);
        for (String id : IDS) {
            down.get(id).setActive(true);
            assertThat(reader.get("c", "k")).as("with " + id + " down").hasValueSatisfying(v ->
                    assertThat(v).isEqualTo(reversed));
            int boundary = 0;
            for (int i = sizes.length - 1; i > 0; i--) {
                boundary += sizes[i];
                int from = Math.max(0, boundary - 7);
                int to = Math.min(reversed.length - 1, boundary + 6);
                assertThat(read(reader, ByteRange.of(from, to))).as("range " + from + "-" + to + " with " + id
                        + " down").isEqualTo(Arrays.copyOfRange(reversed, from, to + 1));
            }
            down.get(id).setActive(false);
        }
    }
}
