/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.crypto;

import io.hybris.DecryptionFailedException;
import io.hybris.KeyUnavailableException;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MetadataKeyProviderTest {
    private final MetadataKeyProvider keys = new MetadataKeyProvider();
    private final byte[] dataKey = ValueCipher.newDataKey(new SecureRandom());

    @Test
    void storesTheDataKeyAsIsButCopied() {
        byte[] stored = keys.wrap(keys.currentKeyId(), dataKey);

        assertThat(keys.currentKeyId()).isEmpty();
        assertThat(stored).isEqualTo(dataKey).isNotSameAs(dataKey);
        byte[] back = keys.unwrap("", stored);
        assertThat(back).isEqualTo(dataKey).isNotSameAs(stored);
        back[0] ^= 1;
        assertThat(keys.unwrap("", stored)).isEqualTo(dataKey);
    }

    @Test
    void corruptedDataKeyInMetadata() {
        for (int len : new int[] {0, 31, 33, 60}) {
            assertThatThrownBy(() -> keys.unwrap("", new byte[len]))
                    .isInstanceOf(DecryptionFailedException.class)
                    .hasMessageContaining("corrupted data key in metadata")
                    .hasMessageContaining(len + " bytes");
        }
    }

    @Test
    void envelopeValuesNeedEnvelopeKeys() {
        byte[] wrapped = EnvelopeKeyProvider.of(java.util.Map.of("kek-7", EnvelopeKeyProvider.generateKek()), "kek-7")
                .wrap("kek-7", dataKey);

        assertThatThrownBy(() -> keys.unwrap("kek-7", wrapped))
                .isInstanceOf(KeyUnavailableException.class)
                .hasMessageContaining("envelope mode with KEK 'kek-7'")
                .hasMessageContaining("no envelope keys configured")
                .hasMessageContaining("hybris.crypto.mode=envelope");
        assertThatThrownBy(() -> keys.wrap("kek-7", dataKey))
                .isInstanceOf(KeyUnavailableException.class)
                .hasMessageContaining("'kek-7'");
    }

    @Test
    void wrapRejectsADataKeyOfTheWrongLength() {
        assertThatThrownBy(() -> keys.wrap("", new byte[16]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16 bytes");
    }

    @Test
    void worksWithValueCipher() {
        byte[] value = "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        SecureRandom random = new SecureRandom();
        byte[] sealed = ValueCipher.encrypt(keys.unwrap("", keys.wrap("", dataKey)), value, random);

        assertThat(ValueCipher.decrypt(keys.unwrap("", keys.wrap("", dataKey)), sealed)).isEqualTo(value);
    }
}
