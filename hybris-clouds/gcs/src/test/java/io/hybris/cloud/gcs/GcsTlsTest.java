/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.OAuth2CredentialsWithRefresh;
import io.hybris.spi.PermanentCloudException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An https endpoint with a self-signed certificate (made with the JDK's keytool): trusted through
 * {@code trust-store}, refused permanently without it. The server is {@link FakeGcsServer} over TLS.
 */
@Timeout(120)
class GcsTlsTest {
    private static final String KEY = "hybris/c/k#1_abc";

    @TempDir
    static Path dir;
    private static Path trustStore;
    private static FakeGcsServer server;

    @BeforeAll
    static void serverWithSelfSignedCertificate() throws Exception {
        Path serverKeys = dir.resolve("server.p12");
        Path cert = dir.resolve("server.pem");
        trustStore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", serverKeys.toString(), "-storepass", "server-pass", "-keypass", "server-pass");
        keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", serverKeys.toString(),
                "-storepass", "server-pass", "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", trustStore.toString(), "-storepass", "trust-pass");
        server = FakeGcsServer.startTls(serverKeys, "server-pass");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static GcsCloudStore.Builder store() {
        AccessToken access = new AccessToken("tls-token", Date.from(Instant.now().plusSeconds(3600)));
        return GcsCloudStore.builder("tls").endpoint(server.endpoint()).project("p").bucket("bkt")
                .credentials(OAuth2CredentialsWithRefresh.newBuilder().setAccessToken(access)
                        .setRefreshHandler(() -> access).build());
    }

    @Test
    void aTrustStoreWithTheCertificateLetsTheStoreTalkHttps() {
        assertThat(server.endpoint().getScheme()).isEqualTo("https");
        server.respondWith(200, "");
        try (GcsCloudStore store = store().trustStore(trustStore).trustStorePassword("trust-pass").build()) {
            server.respondWith(404, "No such object");
            assertThat(store.get(KEY, 10)).isEmpty();
            assertThat(server.lastAuthorization()).isEqualTo("Bearer tls-token");
        }
    }

    @Test
    void withoutTheTrustStoreTheCertificateIsRefusedPermanently() {
        server.respondWith(200, "");
        int before = server.storageRequests();
        assertThatThrownBy(() -> store().build()).isInstanceOf(PermanentCloudException.class)
                .hasMessageContaining("TLS certificate is not trusted").hasMessageContaining("trust-store");
        assertThat(server.storageRequests()).isEqualTo(before);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("keytool %s: %s", args[0], output).isZero();
    }
}
