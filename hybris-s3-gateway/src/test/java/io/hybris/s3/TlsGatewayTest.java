/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.PutOptions;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The gateway over HTTPS with a self-signed key pair made by the JDK's keytool; a bad key store is named. */
class TlsGatewayTest {
    @TempDir
    Path dir;

    @Test
    void servesHttpsWithTheConfiguredKeyStore() throws Exception {
        Path keyStore = keyStore(dir);
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore());
        List.of("c0", "c1", "c2").forEach(id -> config.cloud(new InMemoryCloudStore(id)));
        try (Hybris hybris = Hybris.open(config.build());
             S3Gateway gateway = S3Gateway.builder(hybris).port(0).tls(keyStore, "changeit".toCharArray())
                     .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start();
             S3Presigner presigner = S3Presigner.builder().endpointOverride(gateway.endpoint())
                     .region(Region.US_EAST_1).credentialsProvider(StaticCredentialsProvider.create(
                             AwsBasicCredentials.create(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY)))
                     .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build()) {
            assertThat(gateway.endpoint().getScheme()).isEqualTo("https");
            hybris.put(Buckets.REGISTRY, "tls", "0".getBytes(StandardCharsets.UTF_8), PutOptions.ifAbsent());
            hybris.put("tls", "secret.txt", "over TLS".getBytes(StandardCharsets.UTF_8));
            var url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket("tls").key("secret.txt"))).url();
            KeyStore trust = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keyStore)) {
                trust.load(in, "changeit".toCharArray());
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            HttpResponse<String> got = HttpClient.newBuilder().sslContext(ssl).build()
                    .send(HttpRequest.newBuilder(url.toURI()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(got.statusCode()).isEqualTo(200);
            assertThat(got.body()).isEqualTo("over TLS");
        }
    }

    /** A PKCS#12 key store in {@code dir} with a self-signed key pair for 127.0.0.1, password "changeit". */
    static Path keyStore(Path dir) throws Exception {
        Path keyStore = dir.resolve("gateway.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "gateway", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=IP:127.0.0.1", "-storetype", "PKCS12", "-keystore",
                keyStore.toString(), "-storepass", "changeit", "-keypass", "changeit").inheritIO().start();
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).isZero();
        return keyStore;
    }

    @Test
    void aKeyStoreThatCannotBeReadIsNamed() {
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore());
        List.of("c0", "c1", "c2").forEach(id -> config.cloud(new InMemoryCloudStore(id)));
        try (Hybris hybris = Hybris.open(config.build())) {
            Path missing = dir.resolve("missing.p12");
            assertThatThrownBy(() -> S3Gateway.builder(hybris).port(0).tls(missing, new char[0])
                    .credentials("a", "b").start()).isInstanceOf(HybrisConfigurationException.class)
                    .hasMessageContaining("missing.p12");
            assertThatThrownBy(() -> S3Gateway.builder(hybris).port(0).start())
                    .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("access key");
        }
    }
}
