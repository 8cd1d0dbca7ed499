/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.CloudStore;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.ProviderOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An {@code https} endpoint whose certificate comes from a private CA (a self-signed one made with keytool, served
 * by a TLS proxy in front of MinIO): trusted through {@code trust-store}, refused without it.
 */
class S3TlsTest {
    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    Path dir;
    private Minio minio;
    private String bucket;
    private TlsProxy proxy;
    private Path trustStore;

    @BeforeEach
    void setUp() throws Exception {
        minio = Minio.require();
        bucket = Minio.freshBucket();
        minio.createBucket(bucket);
        Path keyStore = dir.resolve("server.p12");
        Path cert = dir.resolve("server.crt");
        trustStore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keyStore.toString(), "-storepass", new String(PASSWORD));
        keytool("-exportcert", "-alias", "server", "-keystore", keyStore.toString(), "-storepass",
                new String(PASSWORD), "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", trustStore.toString(), "-storepass", new String(PASSWORD));
        proxy = new TlsProxy(keyStore, PASSWORD, minio.endpoint());
    }

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.close();
        }
        if (minio != null) {
            minio.deleteBucket(bucket);
            minio.close();
        }
    }

    private static void keytool(String... args) throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(concat(keytool.toString(), args)).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("keytool %s: %s", List.of(args), output).isZero();
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private Map<String, String> options() {
        return Map.of("endpoint", proxy.endpoint().toString(), "bucket", bucket,
                "access-key", minio.accessKey(), "secret-key", minio.secretKey());
    }

    @Test
    void anHttpsEndpointIsTrustedThroughTheTrustStore() {
        Map<String, String> options = new java.util.HashMap<>(options());
        options.put("trust-store", trustStore.toString());
        options.put("trust-store-password", new String(PASSWORD));
        byte[] value = "over tls".getBytes(StandardCharsets.UTF_8);
        try (CloudStore store = new S3CloudStoreProvider().create("tls",
                new ProviderOptions("hybris.cloud.tls.", options))) {
            store.put("hybris/c/k#1_a", value);
            assertThat(store.get("hybris/c/k#1_a", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
        }
        assertThat(minio.rawKeys(bucket)).containsExactly("hybris/c/k#1_a");
    }

    @Test
    void anUntrustedCertificateIsAPermanentErrorThatNamesTheTrustStoreOption() {
        assertThatThrownBy(() -> new S3CloudStoreProvider().create("tls",
                new ProviderOptions("hybris.cloud.tls.", options())))
                .isInstanceOf(PermanentCloudException.class)
                .hasMessageContaining("TLS certificate is not trusted")
                .hasMessageContaining("hybris.cloud.tls.trust-store");
    }
}
