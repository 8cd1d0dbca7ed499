/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.ObjectKeyPrefix;
import io.hybris.HybrisConfigurationException;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The validated, immutable configuration of one {@link S3CloudStore}. Every error message names the property
 * ({@code hybris.cloud.<id>.<option>}) that was wrong and says how to fix it.
 */
record S3Settings(
        String cloudId,
        Optional<URI> endpoint,
        String region,
        String bucket,
        String prefix,
        Optional<StaticKeys> keys,
        boolean pathStyle,
        Duration connectTimeout,
        Duration requestTimeout,
        int retries,
        boolean createBucket,
        int maxConnections,
        Optional<Path> trustStore,
        Optional<String> trustStorePassword) {

    /** Default {@code region}: S3-compatible servers accept any region, and AWS's global default is this one. */
    static final String DEFAULT_REGION = "us-east-1";
    /** Default {@code connect-timeout}. */
    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Default {@code request-timeout}: one attempt, including the transfer of the body. */
    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** Default {@code retries}: none, so Hybris's fallback to another cloud decides latency. */
    static final int DEFAULT_RETRIES = 0;
    /** Default {@code max-connections}. */
    static final int DEFAULT_MAX_CONNECTIONS = 50;


    /** An access key pair (and optional session token) given in the configuration. */
    record StaticKeys(String accessKey, String secretKey, Optional<String> sessionToken) {
        @Override
        public String toString() {
            return "StaticKeys[accessKey=" + accessKey + ", secretKey=***]";
        }
    }

    /** Validates the builder's values. */
    static S3Settings of(S3CloudStore.Builder b) {
        String id = b.cloudId;
        if (id == null || id.isBlank()) {
            throw new HybrisConfigurationException("an S3 cloud store needs a cloud id (the <id> of hybris.cloud.<id>.*)");
        }
        String bucket = trimToNull(b.bucket);
        if (bucket == null) {
            throw new HybrisConfigurationException(key(id, "bucket") + " is required but not set: the name of the"
                    + " bucket this cloud's objects are stored in");
        }
        if (bucket.length() < 3 || bucket.length() > 255 || !bucket.chars().allMatch(S3Settings::bucketChar)) {
            throw new HybrisConfigurationException(key(id, "bucket") + "=" + bucket + " is not a valid bucket name:"
                    + " use 3-63 of a-z, 0-9, '.' and '-' (AWS's rules; S3-compatible servers may also allow"
                    + " upper case and '_')");
        }
        Optional<URI> endpoint = Optional.ofNullable(b.endpoint).map(u -> checkEndpoint(id, u));
        String region = Optional.ofNullable(trimToNull(b.region)).orElse(DEFAULT_REGION);
        if (!region.matches("[A-Za-z0-9-]+")) {
            throw new HybrisConfigurationException(key(id, "region") + "=" + region + " is not a region name such"
                    + " as us-east-1 or eu-central-1");
        }
        String prefix = normalisePrefix(id, b.prefix);
        String access = trimToNull(b.accessKey);
        String secret = trimToNull(b.secretKey);
        String token = trimToNull(b.sessionToken);
        if ((access == null) != (secret == null)) {
            throw new HybrisConfigurationException("set both " + key(id, "access-key") + " and "
                    + key(id, "secret-key") + ", or neither to use the AWS default credentials provider chain;"
                    + " only " + (access == null ? "secret-key" : "access-key") + " is set");
        }
        if (token != null && access == null) {
            throw new HybrisConfigurationException(key(id, "session-token") + " needs " + key(id, "access-key")
                    + " and " + key(id, "secret-key") + " as well");
        }
        Optional<StaticKeys> keys = access == null ? Optional.empty()
                : Optional.of(new StaticKeys(access, secret, Optional.ofNullable(token)));
        boolean pathStyle = b.pathStyle != null ? b.pathStyle : endpoint.isPresent();
        Duration connect = S3CloudStoreProvider.CONNECT_TIMEOUT.orDefault(key(id, "connect-timeout"),
                b.connectTimeout);
        Duration request = S3CloudStoreProvider.REQUEST_TIMEOUT.orDefault(key(id, "request-timeout"),
                b.requestTimeout);
        int retries = S3CloudStoreProvider.RETRIES.orDefault(key(id, "retries"), b.retries);
        int maxConnections = S3CloudStoreProvider.MAX_CONNECTIONS.orDefault(key(id, "max-connections"),
                b.maxConnections);
        // the trust store is checked and loaded by TrustStore.loadIfSet when the clients are built
        Optional<Path> trustStore = Optional.ofNullable(b.trustStore);
        Optional<String> trustStorePassword = Optional.ofNullable(b.trustStorePassword);
        return new S3Settings(id, endpoint, region, bucket, prefix, keys, pathStyle, connect, request, retries,
                b.createBucket, maxConnections, trustStore, trustStorePassword);
    }

    /** The full property key of an option of this cloud, e.g. {@code hybris.cloud.aws.bucket}. */
    String key(String option) {
        return key(cloudId, option);
    }

    static String key(String cloudId, String option) {
        return "hybris.cloud." + cloudId + "." + option;
    }

    /** Where the objects live, for messages: {@code bucket 'b'} or {@code bucket 'b' under prefix 'p/'}. */
    String describeLocation() {
        return "bucket '" + bucket + "'" + (prefix.isEmpty() ? "" : " under prefix '" + prefix + "'")
                + endpoint.map(e -> " at " + e).orElse(" in " + region);
    }

    @Override
    public String toString() {
        return "S3Settings[" + cloudId + ": " + describeLocation() + ", pathStyle=" + pathStyle + ", keys="
                + keys.map(k -> "static").orElse("default chain") + ", connectTimeout=" + connectTimeout
                + ", requestTimeout=" + requestTimeout + ", retries=" + retries + ", createBucket=" + createBucket
                + ", maxConnections=" + maxConnections + "]";
    }

    private static URI checkEndpoint(String id, URI uri) {
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                || uri.getHost() == null) {
            throw new HybrisConfigurationException(key(id, "endpoint") + "=" + uri + " is not an http(s) URL such"
                    + " as https://s3.example.com or http://127.0.0.1:9000");
        }
        String path = uri.getRawPath();
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || (path != null && !path.isEmpty()
                && !path.equals("/"))) {
            throw new HybrisConfigurationException(key(id, "endpoint") + "=" + uri + " must not have a path, query"
                    + " or fragment; put the bucket in " + key(id, "bucket") + " and a key prefix in "
                    + key(id, "prefix"));
        }
        return uri;
    }

    private static String normalisePrefix(String id, String raw) {
        return ObjectKeyPrefix.normalize(key(id, "prefix"), raw);
    }

    private static boolean bucketChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-'
                || c == '_';
    }

    private static String trimToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
