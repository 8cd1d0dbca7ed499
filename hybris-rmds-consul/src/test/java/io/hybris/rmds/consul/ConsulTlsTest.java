/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.testkit.ConsulTestAgent;
import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.WatchedRead;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * HTTPS to a Consul agent whose certificate comes from a CA made with {@code consul tls ca create}: trusted through
 * {@code trust-store}, every operation (watch and transaction included) works; without that trust store, or
 * with plain HTTP to the HTTPS port, the store does not start and says why.
 */
class ConsulTlsTest {
    private static final String PREFIX = "hybris.rmds.consul.";
    private static final String PASSWORD = "trust-pw";
    private static ConsulTestAgent agent;
    private static Path truststore;

    @BeforeAll
    static void startHttpsAgent(@TempDir Path dir) throws Exception {
        agent = ConsulTestAgent.devWithHttps();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        try (InputStream pem = Files.newInputStream(agent.caCertificate())) {
            ks.setCertificateEntry("consul-ca", CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        truststore = dir.resolve("consul-ca.p12");
        try (OutputStream out = Files.newOutputStream(truststore)) {
            ks.store(out, PASSWORD.toCharArray());
        }
    }

    @AfterAll
    static void stopAgent() {
        if (agent != null) {
            agent.close();
        }
    }

    @Test
    void everyOperationWorksOverHttpsWithTheCaFromTheTruststore() throws Exception {
        try (MetadataStore store = store(Map.of("tls", "true", "trust-store", truststore.toString(),
                "trust-store-password", PASSWORD))) {
            MetadataKey a = new MetadataKey("docs", "a");
            MetadataKey b = new MetadataKey("docs", "b");
            store.conditionalUpdate(new MetadataUpdate(a, bytes("a1"), MetadataVersion.ABSENT));
            AtomicInteger fired = new AtomicInteger();
            WatchedRead watched = store.readAndWatch(a, fired::incrementAndGet);
            store.conditionalUpdateAll(List.of(
                    new MetadataUpdate(a, bytes("a2"), watched.current().orElseThrow().version()),
                    new MetadataUpdate(b, bytes("b1"), MetadataVersion.ABSENT)));
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.get() == 1);

            assertThat(store.read(a).orElseThrow().value()).isEqualTo(bytes("a2"));
            assertThat(store.list("docs", "", null, 10).entries()).extracting(e -> e.key()).containsExactly("a", "b");
            assertThat(store.containers()).containsExactly("docs");
        }
    }

    @Test
    void withoutTrustInTheCaTheStoreDoesNotStart() {
        assertThatThrownBy(() -> store(Map.of("tls", "true", "start-timeout", "2s")))
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("cannot reach Consul at 127.0.0.1:" + agent.httpsPort())
                .hasMessageContaining("SSLHandshakeException")
                .hasMessageContaining(PREFIX + "tls");
    }

    @Test
    void theDeprecatedTrustStoreOptionNamesStillWork() {
        try (MetadataStore store = store(Map.of("tls", "true", "tls-truststore", truststore.toString(),
                "tls-truststore-password", PASSWORD))) {
            assertThat(store.read(new MetadataKey("docs", "old-names"))).isEmpty();
        }
    }

    @Test
    void plainHttpToTheHttpsPortDoesNotStart() {
        assertThatThrownBy(() -> store(Map.of("start-timeout", "2s")))
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("cannot reach Consul at 127.0.0.1:" + agent.httpsPort())
                .hasMessageContaining("HTTP 400");
    }

    @Test
    void aWrongTruststorePasswordIsAConfigurationErrorThatDoesNotShowIt() {
        assertThatThrownBy(() -> store(Map.of("tls", "true", "trust-store", truststore.toString(),
                "trust-store-password", "not-the-password")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "trust-store=" + truststore)
                .hasMessageContaining(PREFIX + "trust-store-password")
                .hasMessageNotContaining("not-the-password");
    }

    @Test
    void aMissingTruststoreIsAConfigurationError(@TempDir Path dir) {
        Path missing = dir.resolve("missing.p12");
        assertThatThrownBy(() -> store(Map.of("tls", "true", "trust-store", missing.toString())))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "trust-store=" + missing)
                .hasMessageContaining("not a readable file");
    }

    private static MetadataStore store(Map<String, String> options) {
        Map<String, String> o = new HashMap<>(options);
        o.put("address", "127.0.0.1:" + agent.httpsPort());
        return new ConsulMetadataStoreProvider().create(new ProviderOptions(PREFIX, o));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
