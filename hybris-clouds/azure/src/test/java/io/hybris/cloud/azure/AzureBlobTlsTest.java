/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import io.hybris.spi.PermanentCloudException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An https endpoint whose certificate is self-signed (made with the JDK's {@code keytool}): trusted through
 * {@code trust-store}, the store starts and works; without it, start-up fails permanently naming the option.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class AzureBlobTlsTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final String PASSWORD = "server-pw";
    private static ScriptedBlobServer server;
    private static Path trustStore;

    @BeforeAll
    static void startHttpsServer(@TempDir Path dir) throws Exception {
        Path serverStore = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", serverStore.toString(), "-storepass", PASSWORD,
                "-keypass", PASSWORD).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        assertThat(keytool.waitFor(30, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(keytool.exitValue()).as("keytool: " + output).isZero();

        KeyStore keys = KeyStore.getInstance(serverStore.toFile(), PASSWORD.toCharArray());
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        server = new ScriptedBlobServer(tls);

        Certificate certificate = keys.getCertificate("server");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate);
        trustStore = dir.resolve("trust.p12");
        try (OutputStream out = Files.newOutputStream(trustStore)) {
            trust.store(out, "trust-pw".toCharArray());
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void trustStoreMakesThePrivateCertificateTrusted() {
        assertThat(server.endpoint()).startsWith("https://");
        try (AzureBlobCloudStore store = AzureBlobCloudStore.builder("tls").endpoint(server.endpoint())
                .account("acct").key(KEY).container("scripted").trustStore(trustStore)
                .trustStorePassword("trust-pw").build()) {
            server.failWith(404, "BlobNotFound");
            assertThat(store.get("hybris/k#1_c", 10)).isEmpty();
            assertThat(server.blobRequests()).isEqualTo(1);
        }
    }

    @Test
    void withoutTheTrustStoreStartUpFailsPermanentlyNamingTheOption() {
        assertThatThrownBy(() -> AzureBlobCloudStore.builder("tls").endpoint(server.endpoint()).account("acct")
                .key(KEY).container("scripted").build())
                .isInstanceOf(PermanentCloudException.class)
                .hasMessageContainingAll("TLS certificate of " + server.endpoint() + " is not trusted",
                        "hybris.cloud.tls.trust-store");
    }

    @Test
    void aWrongTrustStorePasswordIsAConfigurationErrorNamingTheOptions() {
        assertThatThrownBy(() -> AzureBlobCloudStore.builder("tls").endpoint(server.endpoint()).account("acct")
                .key(KEY).container("scripted").trustStore(trustStore).trustStorePassword("wrong").build())
                .isInstanceOf(io.hybris.HybrisConfigurationException.class)
                .hasMessageContainingAll("hybris.cloud.tls.trust-store=" + trustStore,
                        "hybris.cloud.tls.trust-store-password");
    }
}
