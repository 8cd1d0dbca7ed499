/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The servers {@code src/test/test-env.sh start} launched on loopback (MinIO, Azurite, fake-gcs-server,
 * toxiproxy), read from the properties file it wrote, which Maven passes as {@code -Dhybris.test.env=<file>}
 * ({@code src/test/run-tests.sh} does both).
 *
 * <p>Without that property an integration test is skipped with a message saying how to start the servers —
 * except in CI (environment {@code CI=true}) or with {@code -Dhybris.test.require-env=true}, where it fails:
 * a missing server must never turn a CI run green.
 */
public final class TestEnvironment {
    /** The system property naming the endpoints file. */
    public static final String PROPERTY = "hybris.test.env";

    private final Properties properties;

    private TestEnvironment(Properties properties) {
        this.properties = properties;
    }

    /** The environment described by an endpoints file, for programs (benchmarks) that run outside JUnit. */
    public static TestEnvironment load(Path file) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the test endpoints file " + file
                    + " (written by src/test/test-env.sh start): " + e, e);
        }
        return new TestEnvironment(p);
    }

    /**
     * The running test environment; skips the calling test (or fails it in CI) when none was started.
     *
     * @throws IllegalStateException in CI, or when the endpoints file cannot be read
     */
    public static TestEnvironment require() {
        String file = System.getProperty(PROPERTY);
        if (file == null || file.isBlank()) {
            String how = "no test servers: run src/test/run-tests.sh, or src/test/test-env.sh start and pass -D"
                    + PROPERTY + "=target/test-env/endpoints.properties to Maven";
            if ("true".equalsIgnoreCase(System.getenv("CI")) || Boolean.getBoolean("hybris.test.require-env")) {
                throw new IllegalStateException(how);
            }
            Assumptions.abort(how);
        }
        return load(Path.of(file));
    }

    /** The value of one key of the endpoints file, e.g. {@code minio.endpoint}. */
    public String get(String key) {
        String value = properties.getProperty(key);
        if (value == null) {
            throw new IllegalStateException("the test endpoints file has no '" + key
                    + "'; is src/test/test-env.sh older than this test?");
        }
        return value;
    }

    /** MinIO's S3 endpoint, e.g. {@code http://127.0.0.1:41234}. */
    public URI minioEndpoint() {
        return URI.create(get("minio.endpoint"));
    }

    /** MinIO's root access key. */
    public String minioAccessKey() {
        return get("minio.access-key");
    }

    /** MinIO's root secret key. */
    public String minioSecretKey() {
        return get("minio.secret-key");
    }

    /** Azurite's blob endpoint including the account, e.g. {@code http://127.0.0.1:41235/devstoreaccount1}. */
    public URI azuriteEndpoint() {
        return URI.create(get("azurite.endpoint"));
    }

    /** Azurite's account name. */
    public String azuriteAccount() {
        return get("azurite.account");
    }

    /** Azurite's account key (the public development key). */
    public String azuriteKey() {
        return get("azurite.key");
    }

    /** fake-gcs-server's endpoint, e.g. {@code http://127.0.0.1:41236}. */
    public URI gcsEndpoint() {
        return URI.create(get("gcs.endpoint"));
    }

    /** The GCS project id the tests use. */
    public String gcsProject() {
        return get("gcs.project");
    }

    /** The toxiproxy proxy {@code s3} in front of MinIO (same form as {@link #minioEndpoint()}). */
    public URI minioProxy() {
        return URI.create(get("minio.proxy"));
    }

    /** The toxiproxy proxy {@code azure} in front of Azurite (same form as {@link #azuriteEndpoint()}). */
    public URI azuriteProxy() {
        return URI.create(get("azurite.proxy"));
    }

    /** The toxiproxy proxy {@code gcs} in front of fake-gcs-server (same form as {@link #gcsEndpoint()}). */
    public URI gcsProxy() {
        return URI.create(get("gcs.proxy"));
    }

    /** toxiproxy's API endpoint, e.g. {@code http://127.0.0.1:41237}. */
    public URI toxiproxyApi() {
        return URI.create(get("toxiproxy.api"));
    }

    /** The memcached server's {@code host:port}, e.g. {@code 127.0.0.1:41238} (started with {@code -U 0 -I 16m}). */
    public String memcachedAddress() {
        return get("memcached.address");
    }
}
