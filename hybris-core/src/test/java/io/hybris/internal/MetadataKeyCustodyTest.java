/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.DecryptionFailedException;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.KeyUnavailableException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.crypto.ValueCipher;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.KeyProvider;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionedValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.crypto.SecretKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Key custody as the metadata records it: what a dump of the metadata store holds in each mode, a deletion
 * shredding the data key, and tampered key records (moved here from the testkit's EncryptionTest because they read
 * and rewrite the metadata encoding itself).
 */
class MetadataKeyCustodyTest {
    private static final String C = "vault";

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

    @Test
    void missingOrWrongKeyEncryptionKeysGiveClearErrorsNeverGarbage() {
        Hybris writer = client(envelope("k1", "k1", k1));
        writer.put(C, "k", "secret".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> client(envelope("k2", "k2", k2)).get(C, "k"))
                .isInstanceOf(KeyUnavailableException.class).hasMessageContaining("k1");
        assertThatThrownBy(() -> client(null).get(C, "k"))
                .isInstanceOf(KeyUnavailableException.class).hasMessageContaining("'k1'")
                .hasMessageContaining("hybris.crypto.mode=envelope");
        // a KEK with the right id but other bytes: the wrapped key does not authenticate
        assertThatThrownBy(() -> client(envelope("k1", "k1", k2)).get(C, "k"))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("k1");
        // the wrapped key presented under another configured id (id mismatch)
        rewriteEncryption("k", e -> new Metadata.Encryption("k2", e.wrapped()));
        assertThatThrownBy(() -> client(envelope("k2", "k1", k1, "k2", k2)).get(C, "k"))
                .isInstanceOf(DecryptionFailedException.class);
    }

    @Test
    void corruptedWrappedKeyIsDetected() {
        Hybris h = client(envelope("k1", "k1", k1));
        h.put(C, "k", "secret".getBytes(StandardCharsets.UTF_8));
        rewriteEncryption("k", e -> {
            byte[] w = e.wrapped().clone();
            w[w.length / 2] ^= 1;
            return new Metadata.Encryption(e.keyId(), w);
        });
        assertThatThrownBy(() -> h.get(C, "k")).isInstanceOf(DecryptionFailedException.class);
    }

    /**
     * A value written in metadata mode whose in-metadata data key was damaged (31 bytes): moving the deployment to
     * envelope mode by a rotation counts it unreadable and goes on with the others, as for any key it cannot unwrap;
     * it must not hand the damaged key to the provider's wrap (which refuses it with an unchecked exception that
     * would end the whole rotation).
     */
    @Test
    void aRotationCountsAnInMetadataKeyOfTheWrongLengthUnreadableAndGoesOn() {
        byte[] v = "secret".getBytes(StandardCharsets.UTF_8);
        Hybris paper = client(new MetadataKeyProvider());
        paper.put(C, "damaged", v);
        paper.put(C, "intact", v);
        rewriteEncryption("damaged", e -> new Metadata.Encryption("", Arrays.copyOf(e.wrapped(), 31)));

        io.hybris.RewrapReport r = client(envelope("k2", "k2", k2)).rewrapDataKeys();
        assertThat(r.examined()).isEqualTo(2);
        assertThat(r.rewrapped()).isEqualTo(1);
        assertThat(r.unreadable()).isEqualTo(1);
        assertThat(r.unreadableKeys()).containsExactly(C + "/damaged");
        assertThat(client(envelope("k2", "k2", k2)).get(C, "intact"))
                .hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
    }

    private void rewriteEncryption(String key, java.util.function.UnaryOperator<Metadata.Encryption> change) {
        MetadataKey mk = new MetadataKey(C, key);
        VersionedValue v = metadata.read(mk).orElseThrow();
        Metadata m = MetadataCodec.decode(v.value());
        try {
            metadata.conditionalUpdate(new MetadataUpdate(mk,
                    MetadataCodec.encode(m.withEncryption(change.apply(m.encryption()))), v.version()));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Whether any 32-byte window of the metadata entry decrypts the stored ciphertext of its value. */
    private boolean metadataHoldsAUsableDataKey(String key) {
        byte[] raw = metadata.read(new MetadataKey(C, key)).orElseThrow().value();
        Metadata m = MetadataCodec.decode(raw);
        String objectKey = "hybris/" + C + "/" + key + "#" + m.timestamp();
        byte[] stored = clouds.stream().filter(c -> c.id().equals(m.clouds().get(0))).findFirst().orElseThrow()
                .get(objectKey, Long.MAX_VALUE).orElseThrow();
        for (int i = 0; i + ValueCipher.DATA_KEY_BYTES <= raw.length; i++) {
            try {
                ValueCipher.decrypt(Arrays.copyOfRange(raw, i, i + ValueCipher.DATA_KEY_BYTES), stored);
                return true;
            } catch (DecryptionFailedException expected) {
                // not a key
            }
        }
        return false;
    }

    @Test
    void aDumpOfTheMetadataStoreInEnvelopeModeHoldsNoUsableDataKey() {
        client(envelope("k1", "k1", k1)).put(C, "enveloped", "secret".getBytes(StandardCharsets.UTF_8));
        client(new MetadataKeyProvider()).put(C, "paper-mode", "secret".getBytes(StandardCharsets.UTF_8));
        assertThat(metadataHoldsAUsableDataKey("enveloped")).isFalse();
        assertThat(metadataHoldsAUsableDataKey("paper-mode")).as("the probe finds a key where there is one")
                .isTrue();
    }

    @Test
    void deleteShredsTheDataKey() {
        Hybris h = client(envelope("k1", "k1", k1));
        h.put(C, "k", "secret".getBytes(StandardCharsets.UTF_8));
        assertThat(MetadataCodec.decode(metadata.read(new MetadataKey(C, "k")).orElseThrow().value()).encryption())
                .isNotNull();
        h.delete(C, "k");
        Metadata tombstone = MetadataCodec.decode(metadata.read(new MetadataKey(C, "k")).orElseThrow().value());
        assertThat(tombstone.isTombstone()).isTrue();
        assertThat(tombstone.encryption()).isNull();
    }
}
