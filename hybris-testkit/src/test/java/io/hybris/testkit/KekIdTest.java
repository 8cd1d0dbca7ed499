/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.KeyUnavailableException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.KeyProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link KeyProvider} SPI puts no limit on KEK ids (a KMS or HSM seam: ids are often resource names), but
 * metadata records the id as ASCII behind a one-byte length. A non-ASCII or longer id used to be committed in a form
 * no read could find the key by (the value unreadable for good); it is now refused before anything is written,
 * naming the id and the rule, and the longest id metadata holds round-trips.
 */
class KekIdTest {
    private static final String C = "vault";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"),
            new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    private final List<Hybris> open = new ArrayList<>();

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    /** A KMS-like provider with one KEK under an arbitrary id (it wraps with an envelope KEK internally). */
    static final class OneKek implements KeyProvider {
        private final String id;
        private final EnvelopeKeyProvider inner = EnvelopeKeyProvider.of(
                Map.of("k", EnvelopeKeyProvider.generateKek()), "k");

        OneKek(String id) {
            this.id = id;
        }

        @Override
        public String currentKeyId() {
            return id;
        }

        @Override
        public byte[] wrap(String keyId, byte[] dataKey) {
            if (!keyId.equals(id)) {
                throw new KeyUnavailableException("no KEK '" + keyId + "'");
            }
            return inner.wrap("k", dataKey);
        }

        @Override
        public byte[] unwrap(String keyId, byte[] wrapped) {
            if (!keyId.equals(id)) {
                throw new KeyUnavailableException("no KEK '" + keyId + "'");
            }
            return inner.unwrap("k", wrapped);
        }
    }

    private Hybris client(KeyProvider keys) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).encryption(keys)
                .deadline(Duration.ofSeconds(10));
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        open.add(h);
        return h;
    }

    private void refused(String keyId) {
        Hybris h = client(new OneKek(keyId));
        assertThatThrownBy(() -> h.put(C, "k", "secret".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining(keyId)
                .hasMessageContaining("at most 255 characters of printable ASCII");
        assertThat(h.describe(C, "k")).as("nothing committed").isEmpty();
        assertThat(clouds).allSatisfy(c -> assertThat(c.list("")).as("nothing uploaded to %s", c.id()).isEmpty());
    }

    @Test
    void aNonAsciiKekIdIsRefusedBeforeAnythingIsWritten() {
        refused("clé-2026");
    }

    @Test
    void aKekIdLongerThanMetadataHoldsIsRefusedBeforeAnythingIsWritten() {
        // e.g. a GCP KMS key version resource name with long project and ring names: 300 characters
        refused("projects/" + "p".repeat(100) + "/locations/europe-west1/keyRings/" + "r".repeat(80)
                + "/cryptoKeys/" + "k".repeat(60) + "/cryptoKeyVersions/1");
    }

    @Test
    void aKekIdOneCharacterPastTheLimitIsRefused() {
        // 256 bytes: behind metadata's one-byte length it would be recorded as 0 (and the entry unreadable)
        refused("k/" + "x".repeat(254));
    }

    @Test
    void aKekIdWithAControlCharacterOrDeleteIsRefused() {
        refused("kek\u007f2026");
        refused("kek\u001f2026");
    }

    @Test
    void theLongestKekIdMetadataHoldsRoundTrips() {
        Hybris h = client(new OneKek("k/" + "x".repeat(253)));
        byte[] v = "secret".getBytes(StandardCharsets.UTF_8);
        h.put(C, "k", v);
        assertThat(h.get(C, "k")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
    }
}
