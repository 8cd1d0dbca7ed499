/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.HybrisConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrustStoreTest {
    private static final String FILE_KEY = "hybris.cloud.c1.trust-store";
    private static final String PASSWORD_KEY = "hybris.cloud.c1.trust-store-password";

    private static Path pkcs12(Path dir, String password) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        Path file = dir.resolve("trust.p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, password.toCharArray());
        }
        return file;
    }

    @Test
    void loadsAPkcs12FileWithItsPassword(@TempDir Path dir) throws Exception {
        TrustStore trust = TrustStore.load(pkcs12(dir, "s3cret"), "s3cret", FILE_KEY, PASSWORD_KEY);
        assertThat(trust.keyStore()).isPresent();
        assertThat(trust.trustManagers()).containsExactly(trust.trustManager());
        assertThat(trust.sslContext().getProtocol()).isEqualTo("TLS");
    }

    @Test
    void theJdkDefaultTrustsTheJdkCas() {
        TrustStore trust = TrustStore.jdkDefault("hybris.rmds.consul.tls");
        assertThat(trust.keyStore()).isEmpty();
        assertThat(trust.trustManager().getAcceptedIssuers()).isNotEmpty();
    }

    @Test
    void errorsNameTheOptionsButNeverThePassword(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing.p12");
        assertThatThrownBy(() -> TrustStore.load(missing, null, FILE_KEY, PASSWORD_KEY))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(FILE_KEY + "=" + missing + " is not a readable file");
        Path garbage = Files.writeString(dir.resolve("garbage.p12"), "not a key store");
        assertThatThrownBy(() -> TrustStore.load(garbage, null, FILE_KEY, PASSWORD_KEY))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(FILE_KEY + "=" + garbage + " cannot be loaded");
        Path store = pkcs12(dir, "s3cret");
        assertThatThrownBy(() -> TrustStore.load(store, "wrong-pass", FILE_KEY, PASSWORD_KEY))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(FILE_KEY + "=" + store).hasMessageContaining(PASSWORD_KEY)
                .hasMessageNotContaining("wrong-pass");
        assertThatThrownBy(() -> TrustStore.loadIfSet(Optional.empty(), Optional.of("x"), FILE_KEY, PASSWORD_KEY))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage(PASSWORD_KEY + " is set but " + FILE_KEY + " is not");
        assertThat(TrustStore.loadIfSet(Optional.empty(), Optional.empty(), FILE_KEY, PASSWORD_KEY)).isEmpty();
    }
}
