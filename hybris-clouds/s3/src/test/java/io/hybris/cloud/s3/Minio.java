/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.testkit.TestEnvironment;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The MinIO server of the test environment: store builders with its endpoint and keys, fresh bucket names, and
 * a plain SDK client to inspect and clean up buckets behind the store's back.
 */
final class Minio implements AutoCloseable {
    private final TestEnvironment env;
    private final S3Client raw;

    private Minio(TestEnvironment env) {
        this.env = env;
        this.raw = S3Client.builder()
                .httpClient(Apache5HttpClient.builder().build())
                .endpointOverride(env.minioEndpoint())
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(env.minioAccessKey(), env.minioSecretKey())))
                .build();
    }

    /** The running MinIO; skips the test (or fails it in CI) when no test environment was started. */
    static Minio require() {
        return new Minio(TestEnvironment.require());
    }

    /** A bucket name no other test uses. */
    static String freshBucket() {
        byte[] random = new byte[8];
        ThreadLocalRandom.current().nextBytes(random);
        return "hybris-s3-test-" + HexFormat.of().formatHex(random);
    }

    TestEnvironment env() {
        return env;
    }

    URI endpoint() {
        return env.minioEndpoint();
    }

    String accessKey() {
        return env.minioAccessKey();
    }

    String secretKey() {
        return env.minioSecretKey();
    }

    /** A builder for a store with this MinIO's endpoint and keys, over {@code bucket}. */
    S3CloudStore.Builder store(String cloudId, String bucket) {
        return S3CloudStore.builder(cloudId).endpoint(endpoint()).credentials(accessKey(), secretKey())
                .bucket(bucket);
    }

    /** Whether the bucket exists, asked directly. */
    boolean bucketExists(String bucket) {
        try {
            raw.headBucket(b -> b.bucket(bucket));
            return true;
        } catch (NoSuchBucketException e) {
            return false;
        }
    }

    /** Every object key in the bucket, asked directly (no prefix stripping). */
    List<String> rawKeys(String bucket) {
        return raw.listObjectsV2Paginator(b -> b.bucket(bucket)).contents().stream().map(S3Object::key).toList();
    }

    /** Deletes every object of the bucket and the bucket itself; a missing bucket is fine. */
    void deleteBucket(String bucket) {
        if (!bucketExists(bucket)) {
            return;
        }
        String token = null;
        do {
            String t = token;
            ListObjectsV2Response page = raw.listObjectsV2(b -> b.bucket(bucket).continuationToken(t));
            List<ObjectIdentifier> ids = page.contents().stream()
                    .map(o -> ObjectIdentifier.builder().key(o.key()).build()).toList();
            if (!ids.isEmpty()) {
                raw.deleteObjects(b -> b.bucket(bucket).delete(Delete.builder().objects(ids).quiet(true).build()));
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        raw.deleteBucket(b -> b.bucket(bucket));
    }

    /** Creates a bucket directly. */
    void createBucket(String bucket) {
        raw.createBucket(b -> b.bucket(bucket));
    }

    @Override
    public void close() {
        raw.close();
    }
}
