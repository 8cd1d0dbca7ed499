/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.PutOptions;
import io.hybris.RewrapReport;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.KeyProvider;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.GatedCloudStore;
import io.hybris.testkit.HeldUpdates;
import io.hybris.testkit.SwitchableKeyProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.crypto.SecretKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * KEK rotation racing writes of erasure-coded values (k=2 of 3 chunks on 4 clouds): a held rotation meeting a
 * conditional PUT re-wraps the new version, and a coded value sealed under the old KEK before the provider's current
 * KEK switched, committed after the rotation ran, is committed under the new KEK (readable once the old is dropped).
 */
class CodedRewrapRacesTest {
    private static final String C = "vault";
    private static final Duration AWAIT = Duration.ofSeconds(20);

    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"), new InMemoryCloudStore("c3"));
    private final List<Hybris> clients = new ArrayList<>();
    private final SecretKey k1 = EnvelopeKeyProvider.generateKek();
    private final SecretKey k2 = EnvelopeKeyProvider.generateKek();

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    private Hybris client(KeyProvider keys, MetadataStore metadata, List<? extends CloudStore> clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(10))
                .erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(2).erasureCoder("java")
                .probeInterval(Duration.ZERO).probeOnOpen(false).encryption(keys);
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    private Hybris client(KeyProvider keys) {
        return client(keys, store, raw);
    }

    private static byte[] value(int size, int seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    @Test
    void aHeldRewrapOvertakenByAConditionalPutReWrapsTheNewCodedVersion() throws Exception {
        Hybris old = client(EnvelopeKeyProvider.of(Map.of("k1", k1), "k1"));
        VersionInfo base = old.put(C, "k", value(5000, 1));
        assertThat(old.describe(C, "k").orElseThrow().clouds()).hasSize(3);
        HeldUpdates.Numbered held = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris rotator = client(EnvelopeKeyProvider.of(Map.of("k1", k1, "k2", k2), "k2"), held, raw);
        CompletableFuture<RewrapReport> run = CompletableFuture.supplyAsync(rotator::rewrapDataKeys);
        held.awaitHeld(1);
        byte[] v = value(7000, 2);
        VersionInfo put = old.put(C, "k", v, PutOptions.ifMatch(base.version()));
        held.release(1);
        RewrapReport r = run.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(r.rewrapped()).as(r.toString()).isEqualTo(1);
        Hybris newOnly = client(EnvelopeKeyProvider.of(Map.of("k2", k2), "k2"));
        assertThat(newOnly.describe(C, "k").orElseThrow().version()).isEqualTo(put.version());
        assertThat(newOnly.get(C, "k")).hasValueSatisfying(g -> assertThat(g).isEqualTo(v));
    }

    @Test
    void aCodedValueSealedBeforeTheKekSwitchAndCommittedAfterTheRewrapIsUnderTheNewKek() throws Exception {
        List<GatedCloudStore> gated = raw.stream().map(c -> GatedCloudStore.of(c, k -> true)).toList();
        SwitchableKeyProvider keys = new SwitchableKeyProvider(EnvelopeKeyProvider.of(Map.of("k1", k1, "k2", k2),
                "k1"), "k1");
        Hybris writer = client(keys, store, gated);
        byte[] v = value(9000, 3);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> writer.put(C, "k", v));
        assertThat(gated.get(0).awaitBlocked(1, AWAIT)).isTrue();
        keys.switchTo("k2");
        assertThat(writer.rewrapDataKeys().rewrapped()).isZero();
        gated.forEach(GatedCloudStore::open);
        VersionInfo written = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        Hybris newOnly = client(EnvelopeKeyProvider.of(Map.of("k2", k2), "k2"));
        assertThat(newOnly.describe(C, "k").orElseThrow().version()).isEqualTo(written.version());
        assertThat(newOnly.get(C, "k")).hasValueSatisfying(g -> assertThat(g).isEqualTo(v));
    }
}
