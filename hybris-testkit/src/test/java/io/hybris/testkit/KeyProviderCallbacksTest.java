/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

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
import io.hybris.spi.KeyProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Key providers as applications write them around a KMS: one that caches the data keys it unwrapped (a KMS call per
 * read is slow and billed) and one that keeps the data keys it wrapped. The arrays such a provider returns or keeps
 * are its own: Hybris zeroing them after use broke every later read of the same version.
 */
class KeyProviderCallbacksTest {
    private static final String C = "vault";

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"),
            new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    private final List<Hybris> open = new ArrayList<>();
    private final EnvelopeKeyProvider kms = EnvelopeKeyProvider.of(Map.of("k1", EnvelopeKeyProvider.generateKek()),
            "k1");

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    private Hybris client(KeyProvider keys) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).encryption(keys)
                .deadline(Duration.ofSeconds(10)).timerMin(Duration.ofMillis(100))
                .timerInitial(Duration.ofMillis(300));
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        open.add(h);
        return h;
    }

    /** Forwards every call to the KMS: what the caching providers below change. */
    private abstract static class ForwardingKeyProvider implements KeyProvider {
        final KeyProvider kms;

        ForwardingKeyProvider(KeyProvider kms) {
            this.kms = kms;
        }

        @Override
        public String currentKeyId() {
            return kms.currentKeyId();
        }

        @Override
        public byte[] wrap(String keyId, byte[] dataKey) {
            return kms.wrap(keyId, dataKey);
        }

        @Override
        public byte[] unwrap(String keyId, byte[] wrapped) {
            return kms.unwrap(keyId, wrapped);
        }
    }

    /** Caches each unwrapped data key by its wrapped form, and returns the cached array. */
    private static final class UnwrapCache extends ForwardingKeyProvider {
        final Map<ByteBuffer, byte[]> unwrapped = new ConcurrentHashMap<>();

        UnwrapCache(KeyProvider kms) {
            super(kms);
        }

        @Override
        public byte[] unwrap(String keyId, byte[] wrapped) {
            return unwrapped.computeIfAbsent(ByteBuffer.wrap(wrapped.clone()), w -> kms.unwrap(keyId, wrapped));
        }
    }

    /** Remembers the data key of each wrapped key it produced, to answer unwraps without the KMS. */
    private static final class WrapCache extends ForwardingKeyProvider {
        final Map<ByteBuffer, byte[]> known = new ConcurrentHashMap<>();

        WrapCache(KeyProvider kms) {
            super(kms);
        }

        @Override
        public byte[] wrap(String keyId, byte[] dataKey) {
            byte[] wrapped = kms.wrap(keyId, dataKey);
            known.put(ByteBuffer.wrap(wrapped.clone()), dataKey);
            return wrapped;
        }

        @Override
        public byte[] unwrap(String keyId, byte[] wrapped) {
            byte[] k = known.get(ByteBuffer.wrap(wrapped));
            return k != null ? k : kms.unwrap(keyId, wrapped);
        }
    }

    @Test
    void aProviderCachingTheKeysItUnwrappedReadsTheSameVersionAgain() throws Exception {
        UnwrapCache keys = new UnwrapCache(kms);
        Hybris h = client(keys);
        byte[] v = "secret one".getBytes(StandardCharsets.UTF_8);
        h.put(C, "k", v);
        for (int i = 0; i < 3; i++) {
            assertThat(h.get(C, "k")).as("read %d", i).contains(v);
        }
        try (ValueStream in = h.getStream(C, "k").orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(v);
        }
        assertThat(keys.unwrapped).hasSize(1);
        assertThat(client(kms).get(C, "k")).contains(v);
    }

    @Test
    void aProviderKeepingTheKeysItWrappedReadsWhatItWrote() {
        WrapCache keys = new WrapCache(kms);
        Hybris h = client(keys);
        byte[] v = "secret two".getBytes(StandardCharsets.UTF_8);
        h.put(C, "k", v);
        assertThat(h.get(C, "k")).contains(v);
        assertThat(client(kms).get(C, "k")).contains(v);
    }

    @Test
    void aProviderCachingTheKeysItUnwrappedEncryptsEveryPartOfAnUploadUnderTheUploadsKey() {
        UnwrapCache keys = new UnwrapCache(kms);
        Hybris h = client(keys);
        byte[] v = new byte[3 * 1000];
        new Random(7).nextBytes(v);
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "film");
        List<UploadedPart> uploaded = new ArrayList<>();
        for (int part = 1; part <= 3; part++) {
            uploaded.add(parts.upload(upload, part, new ByteArrayInputStream(v, (part - 1) * 1000, 1000), 1000));
        }
        parts.complete(upload, uploaded, PutOptions.none());
        // a client with the KMS itself: the parts after the first used to be sealed under a zeroed data key
        assertThat(client(kms).get(C, "film")).contains(v);
        assertThat(h.get(C, "film")).contains(v);
    }
}
