/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.KeyUnavailableException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.RewrapReport;
import io.hybris.UploadedPart;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.KeyProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.crypto.SecretKey;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * KEK rotation (docs/encryption: a new KEK current everywhere, rewrapDataKeys until it reports 0, the old KEK
 * dropped) must never leave a value unreadable: also an upload in parts started under the old KEK and completed
 * after the rotation, whose data key the rewrap cannot reach. Completion now commits it under the current KEK, or,
 * by a client without the old KEK, refuses to commit what no one could decrypt.
 */
class KekRotationTest {
    private static final String C = "vault";
    private static final int CHUNK = 64 << 10;

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"),
            new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    private final List<Hybris> open = new ArrayList<>();
    private final SecretKey k1 = EnvelopeKeyProvider.generateKek();
    private final SecretKey k2 = EnvelopeKeyProvider.generateKek();

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    private Hybris client(KeyProvider keys) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).encryption(keys)
                .chunkSize(CHUNK).chunkThreshold(CHUNK)
                .deadline(Duration.ofSeconds(10)).timerMin(Duration.ofMillis(100)).timerInitial(Duration.ofMillis(300));
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        open.add(h);
        return h;
    }

    private EnvelopeKeyProvider envelope(String current, Object... idAndKey) {
        Map<String, SecretKey> keks = new HashMap<>();
        for (int i = 0; i < idAndKey.length; i += 2) {
            keks.put((String) idAndKey[i], (SecretKey) idAndKey[i + 1]);
        }
        return EnvelopeKeyProvider.of(keks, current);
    }

    private static byte[] value(int size, long seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    /**
     * The documented rotation (new KEK current everywhere, rewrapDataKeys until it reports 0, drop the old KEK)
     * while an upload in parts started under the old KEK is still open: its token carries the data key wrapped under
     * the old KEK, which completion commits as is.
     */
    @Test
    void anUploadInPartsStartedBeforeTheRotationStaysReadableAfterTheOldKekIsDropped() {
        Hybris before = client(envelope("k1", "k1", k1));
        PartUploads parts = PartUploads.of(before);
        PartUpload upload = parts.start(C, "big");
        byte[] v = value(CHUNK + 100, 1);
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(v), v.length);

        // rotation: the new KEK is current on every client, the re-wrap finds nothing more to do
        Hybris rotated = client(envelope("k2", "k1", k1, "k2", k2));
        rotated.put(C, "other", value(10, 2));
        RewrapReport r = rotated.rewrapDataKeys();
        assertThat(r.rewrapped()).isZero(); // nothing under k1 is committed

        // the upload is completed by a client of the rotated deployment, before the old KEK is dropped
        PartUploads.of(rotated).complete(upload, List.of(p1), PutOptions.none());
        // step 3: drop the old KEK
        Hybris newOnly = client(envelope("k2", "k2", k2));
        assertThat(newOnly.get(C, "big")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
    }

    /** Same, but the old KEK is gone before the upload completes: a client that has only the new KEK completes it. */
    @Test
    void completingAnOldUploadWithOnlyTheNewKekIsRefusedAndWithBothCommitsUnderTheNew() {
        Hybris before = client(envelope("k1", "k1", k1));
        PartUploads parts = PartUploads.of(before);
        PartUpload upload = parts.start(C, "big");
        byte[] v = value(CHUNK + 100, 3);
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(v), v.length);

        Hybris newOnly = client(envelope("k2", "k2", k2));
        assertThatThrownBy(() -> PartUploads.of(newOnly).complete(upload, List.of(p1), PutOptions.none()))
                .isInstanceOf(KeyUnavailableException.class).hasMessageContaining("k1");
        assertThat(newOnly.describe(C, "big")).as("nothing committed").isEmpty();
        // a client that still has the old KEK completes it, under the new one
        Hybris both = client(envelope("k2", "k1", k1, "k2", k2));
        PartUploads.of(both).complete(upload, List.of(p1), PutOptions.none());
        assertThat(newOnly.get(C, "big")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
    }

    /**
     * One entry whose data key cannot be unwrapped (under a KEK this deployment no longer has, e.g. written by a
     * misconfigured client) used to stop the rotation there, and every re-run stopped at the same entry: the others
     * are now re-wrapped and that one is named in the report.
     */
    @Test
    void oneEntryUnderAnUnknownKekIsReportedAndTheOthersAreStillRewrapped() {
        SecretKey k0 = EnvelopeKeyProvider.generateKek();
        Hybris old = client(envelope("k1", "k1", k1));
        old.put(C, "a", value(10, 1));
        client(envelope("k0", "k0", k0)).put(C, "b", value(10, 2));
        old.put(C, "c", value(10, 3));
        RewrapReport report = client(envelope("k2", "k1", k1, "k2", k2)).rewrapDataKeys();
        assertThat(report.rewrapped()).isEqualTo(2);
        assertThat(report.unreadable()).isEqualTo(1);
        assertThat(report.unreadableKeys()).containsExactly(C + "/b");
        Hybris newOnly = client(envelope("k2", "k2", k2));
        assertThat(newOnly.get(C, "a")).as("a").isPresent();
        assertThat(newOnly.get(C, "c")).as("c, listed after the unreadable entry").isPresent();
    }

    @Test
    void chunkedAndWholeValuesRotateAndReadWithOnlyTheNewKek() throws Exception {
        Hybris old = client(envelope("k1", "k1", k1));
        byte[] big = value(3 * CHUNK + 5, 9);
        byte[] empty = new byte[0];
        old.put(C, "big", big);
        old.put(C, "empty", empty);
        old.tput(C, Map.of("t1", value(CHUNK + 1, 10), "t2", value(1, 11)));
        PartUploads parts = PartUploads.of(old);
        PartUpload up = parts.start(C, "parts");
        byte[] pv = value(CHUNK + 9, 12);
        parts.complete(up, List.of(parts.upload(up, 1, new ByteArrayInputStream(pv), pv.length)), PutOptions.none());
        RewrapReport r = client(envelope("k2", "k1", k1, "k2", k2)).rewrapDataKeys();
        assertThat(r.rewrapped()).isEqualTo(5);
        Hybris newOnly = client(envelope("k2", "k2", k2));
        assertThat(newOnly.get(C, "big")).hasValueSatisfying(g -> assertThat(g).isEqualTo(big));
        assertThat(newOnly.get(C, "empty")).hasValueSatisfying(g -> assertThat(g).isEmpty());
        assertThat(newOnly.get(C, "parts")).hasValueSatisfying(g -> assertThat(g).isEqualTo(pv));
        try (var in = newOnly.get(C, "big", io.hybris.ByteRange.of(CHUNK - 1, 2 * CHUNK)).orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(big, CHUNK - 1, 2 * CHUNK + 1));
        }
    }
}
