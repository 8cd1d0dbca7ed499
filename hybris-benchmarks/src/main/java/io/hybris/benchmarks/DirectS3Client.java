/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.ycsb.RecordCodec;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The benchmark baseline: a YCSB binding that stores each record straight in one S3 bucket with the AWS SDK v2 and
 * the same HTTP client and settings as Hybris's S3 driver, and the same record bytes as the Hybris binding
 * ({@link RecordCodec}), so the two differ only by what Hybris adds (metadata round trips, f+1 uploads, hashing).
 * Operations mirror {@link io.hybris.ycsb.HybrisClient}: read = GET; insert = PUT; update = GET, merge, PUT;
 * delete = HEAD then DELETE; scan = GET of the start key plus ListObjectsV2 ({@code start-after}) and concurrent
 * GETs. Object key: {@code <table>/<key>}.
 *
 * <p>YCSB properties: {@code s3.endpoint} (required), {@code s3.bucket} (required, created if missing),
 * {@code s3.access-key}, {@code s3.secret-key}, {@code s3.region} ({@code us-east-1}), {@code s3.max-connections}
 * (50, as the driver). One S3 client is shared by all YCSB threads and closed by the last cleanup.
 */
public class DirectS3Client extends DB {
    private static final Object LOCK = new Object();
    private static Shared shared;

    private Shared mine;

    /** Instantiated by YCSB, one per thread. */
    public DirectS3Client() {
    }

    private static final class Shared {
        final S3Client s3;
        final String bucket;
        final ExecutorService scans = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "baseline-scan");
            t.setDaemon(true);
            return t;
        });
        int references;

        Shared(S3Client s3, String bucket) {
            this.s3 = s3;
            this.bucket = bucket;
        }
    }

    @Override
    public void init() throws DBException {
        synchronized (LOCK) {
            if (shared == null) {
                shared = open(getProperties());
            }
            shared.references++;
            mine = shared;
        }
    }

    @Override
    public void cleanup() {
        synchronized (LOCK) {
            if (mine == null) {
                return;
            }
            if (--mine.references == 0) {
                mine.scans.shutdownNow();
                mine.s3.close();
                shared = null;
            }
            mine = null;
        }
    }

    private static Shared open(Properties p) throws DBException {
        String endpoint = require(p, "s3.endpoint");
        String bucket = require(p, "s3.bucket");
        S3Client s3 = S3Client.builder()
                .httpClient(Apache5HttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(5))
                        .socketTimeout(Duration.ofSeconds(60))
                        .connectionAcquisitionTimeout(Duration.ofSeconds(60))
                        .maxConnections(Integer.parseInt(p.getProperty("s3.max-connections", "50")))
                        .expectContinueEnabled(false)
                        .build())
                .region(Region.of(p.getProperty("s3.region", "us-east-1")))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        p.getProperty("s3.access-key", ""), p.getProperty("s3.secret-key", ""))))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o.apiCallAttemptTimeout(Duration.ofSeconds(60))
                        .retryStrategy(r -> r.maxAttempts(1)))
                .endpointOverride(URI.create(endpoint))
                .build();
        try {
            s3.headBucket(b -> b.bucket(bucket));
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                s3.close();
                throw new DBException("bucket " + bucket + " at " + endpoint + ": " + e.getMessage(), e);
            }
            s3.createBucket(b -> b.bucket(bucket));
        }
        return new Shared(s3, bucket);
    }

    private static String require(Properties p, String name) throws DBException {
        String v = p.getProperty(name);
        if (v == null || v.isBlank()) {
            throw new DBException("the S3 baseline needs -p " + name + "=...");
        }
        return v;
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            Optional<byte[]> v = get(table + "/" + key);
            if (v.isEmpty()) {
                return Status.NOT_FOUND;
            }
            RecordCodec.decode(v.get(), fields).forEach((k, b) -> result.put(k, new ByteArrayByteIterator(b)));
            return Status.OK;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        try {
            put(table + "/" + key, RecordCodec.encode(bytes(values)));
            return Status.OK;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        try {
            Optional<byte[]> v = get(table + "/" + key);
            if (v.isEmpty()) {
                return Status.NOT_FOUND;
            }
            Map<String, byte[]> merged = RecordCodec.decode(v.get(), null);
            merged.putAll(bytes(values));
            put(table + "/" + key, RecordCodec.encode(merged));
            return Status.OK;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status delete(String table, String key) {
        String objectKey = table + "/" + key;
        try {
            mine.s3.headObject(HeadObjectRequest.builder().bucket(mine.bucket).key(objectKey).build());
        } catch (NoSuchKeyException e) {
            return Status.NOT_FOUND;
        } catch (S3Exception e) {
            return e.statusCode() == 404 ? Status.NOT_FOUND : Status.ERROR;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
        try {
            mine.s3.deleteObject(b -> b.bucket(mine.bucket).key(objectKey));
            return Status.OK;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        String first = table + "/" + startkey;
        try {
            List<CompletableFuture<Optional<byte[]>>> reads = new ArrayList<>();
            reads.add(CompletableFuture.supplyAsync(() -> get(first), mine.scans));
            ListObjectsV2Response page = mine.s3.listObjectsV2(b -> b.bucket(mine.bucket).prefix(table + "/")
                    .startAfter(first).maxKeys(Math.min(recordcount, 1000)));
            for (S3Object o : page.contents()) {
                reads.add(CompletableFuture.supplyAsync(() -> get(o.key()), mine.scans));
            }
            for (CompletableFuture<Optional<byte[]>> r : reads) {
                Optional<byte[]> v = r.join();
                if (v.isPresent() && result.size() < recordcount) {
                    HashMap<String, ByteIterator> row = new HashMap<>();
                    RecordCodec.decode(v.get(), fields).forEach((k, b) -> row.put(k, new ByteArrayByteIterator(b)));
                    result.add(row);
                }
            }
            return Status.OK;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }

    private Optional<byte[]> get(String objectKey) {
        try {
            ResponseBytes<GetObjectResponse> bytes = mine.s3.getObjectAsBytes(b -> b.bucket(mine.bucket).key(objectKey));
            return Optional.of(bytes.asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    private void put(String objectKey, byte[] value) {
        mine.s3.putObject(b -> b.bucket(mine.bucket).key(objectKey), RequestBody.fromBytes(value));
    }

    private static Map<String, byte[]> bytes(Map<String, ByteIterator> values) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        values.forEach((k, v) -> out.put(k, v.toArray()));
        return out;
    }
}
