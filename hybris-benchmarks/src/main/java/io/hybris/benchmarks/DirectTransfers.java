/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.specialized.BlockBlobClient;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.hybris.Hybris;
import io.hybris.testkit.TestEnvironment;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

import static io.hybris.benchmarks.LargeValuesBenchmark.*;

/**
 * The direct-SDK baselines of {@link LargeValuesBenchmark}, the same bytes as Hybris moves: an S3 multipart upload and
 * an Azure staged-block upload at once (the PUT pair), and ranged S3 GETs read ahead as one stream (optionally
 * hashing each range, as Hybris checks each chunk).
 */
final class DirectTransfers {
    private final TestEnvironment env;
    private final String directName;
    private final int chunk;
    private final int parallel;
    private final int readAhead;
    private final ExecutorService pool;

    DirectTransfers(TestEnvironment env, String directName, int chunk, int parallel, int readAhead,
                    ExecutorService pool) {
        this.env = env;
        this.directName = directName;
        this.chunk = chunk;
        this.parallel = parallel;
        this.readAhead = readAhead;
        this.pool = pool;
    }

    /** Both direct uploads at once; returns {s3 seconds, azure seconds} (the pair takes the larger). */
    double[] directPutPair(S3Client s3, BlobContainerClient azure, long size) {
        long t0 = System.nanoTime();
        CompletableFuture<Double> az = CompletableFuture.supplyAsync(() -> {
            azurePut(azure, size);
            return (System.nanoTime() - t0) / 1e9;
        }, pool);
        s3Put(s3, size);
        double s3Seconds = (System.nanoTime() - t0) / 1e9;
        return new double[] {s3Seconds, az.join()};
    }

    /** S3 multipart upload: chunk-sized parts, {@code parallel} in flight, read from the source in order. */
    void s3Put(S3Client s3, long size) {
        String uploadId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(directName)).uploadId();
        ArrayDeque<Future<CompletedPart>> inFlight = new ArrayDeque<>();
        List<CompletedPart> parts = new ArrayList<>();
        InputStream source = ValuePattern.stream(size);
        try {
            for (int part = 1; ; part++) {
                byte[] bytes = source.readNBytes(chunk);
                if (bytes.length == 0) {
                    break;
                }
                while (inFlight.size() >= parallel) {
                    parts.add(inFlight.poll().get());
                }
                int number = part;
                inFlight.add(pool.submit(() -> {
                    String etag = s3.uploadPart(b -> b.bucket(BUCKET).key(directName).uploadId(uploadId)
                                    .partNumber(number).contentLength((long) bytes.length),
                            RequestBody.fromContentProvider(ContentStreamProvider.fromByteArrayUnsafe(bytes),
                                    bytes.length, "application/octet-stream")).eTag();
                    return CompletedPart.builder().partNumber(number).eTag(etag).build();
                }));
                if (bytes.length < chunk) {
                    break;
                }
            }
            while (!inFlight.isEmpty()) {
                parts.add(inFlight.poll().get());
            }
            s3.completeMultipartUpload(b -> b.bucket(BUCKET).key(directName).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(parts)));
        } catch (Exception e) {
            s3.abortMultipartUpload(b -> b.bucket(BUCKET).key(directName).uploadId(uploadId));
            throw new IllegalStateException("direct S3 multipart upload failed", e);
        }
    }

    /** Azure block blob: chunk-sized staged blocks, {@code parallel} in flight, then the block list. */
    void azurePut(BlobContainerClient azure, long size) {
        BlockBlobClient blob = azure.getBlobClient(directName).getBlockBlobClient();
        ArrayDeque<Future<?>> inFlight = new ArrayDeque<>();
        List<String> ids = new ArrayList<>();
        InputStream source = ValuePattern.stream(size);
        try {
            for (int block = 0; ; block++) {
                byte[] bytes = source.readNBytes(chunk);
                if (bytes.length == 0) {
                    break;
                }
                while (inFlight.size() >= parallel) {
                    inFlight.poll().get();
                }
                String id = Base64.getEncoder().encodeToString(
                        String.format(Locale.ROOT, "block-%08d", block).getBytes(StandardCharsets.US_ASCII));
                ids.add(id);
                inFlight.add(pool.submit(() -> blob.stageBlock(id, BinaryData.fromBytes(bytes))));
                if (bytes.length < chunk) {
                    break;
                }
            }
            while (!inFlight.isEmpty()) {
                inFlight.poll().get();
            }
            blob.commitBlockList(ids, true);
        } catch (Exception e) {
            throw new IllegalStateException("direct Azure block upload failed", e);
        }
    }

    /** The direct GET as a stream: chunk-sized ranged S3 GETs, {@code readAhead} ahead, read in order. */
    InputStream directGetStream(S3Client s3, long first, long length, boolean hash) {
        return new InputStream() {
            final ArrayDeque<Future<byte[]>> ahead = new ArrayDeque<>();
            long nextOffset = first;
            final long end = first + length;
            byte[] current = new byte[0];
            int pos;

            void fill() {
                while (ahead.size() < readAhead && nextOffset < end) {
                    long from = nextOffset;
                    long to = Math.min(end, (from / chunk + 1) * chunk) - 1;
                    nextOffset = to + 1;
                    ahead.add(pool.submit(() -> {
                        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(BUCKET)
                                .key(directName).range("bytes=" + from + "-" + to))) {
                            byte[] bytes = new byte[(int) (to - from + 1)];
                            java.security.MessageDigest sha = hash
                                    ? java.security.MessageDigest.getInstance("SHA-256") : null;
                            int n = 0;
                            while (n < bytes.length) { // 64 KiB at a time, as the drivers read
                                int got = in.read(bytes, n, Math.min(64 << 10, bytes.length - n));
                                if (got < 0) {
                                    throw new IOException("short range " + from + "-" + to + ": " + n);
                                }
                                if (sha != null) {
                                    sha.update(bytes, n, got); // hashed as the bytes arrive, as Hybris does
                                }
                                n += got;
                            }
                            if (sha != null) {
                                sha.digest();
                            }
                            return bytes;
                        }
                    }));
                }
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (pos == current.length) {
                    fill();
                    Future<byte[]> next = ahead.poll();
                    if (next == null) {
                        return -1;
                    }
                    try {
                        current = next.get();
                    } catch (Exception e) {
                        throw new IOException(e);
                    }
                    pos = 0;
                    fill();
                }
                int n = Math.min(len, current.length - pos);
                System.arraycopy(current, pos, b, off, n);
                pos += n;
                return n;
            }

            @Override
            public void close() {
                ahead.forEach(f -> f.cancel(true));
                ahead.clear();
            }
        };
    }

    long directGet(S3Client s3, long size, boolean hash) throws IOException {
        try (InputStream in = directGetStream(s3, 0, size, hash)) {
            return LargeValuesRun.drain(in);
        }
    }

    S3Client s3Client() {
        return S3Client.builder()
                .httpClient(Apache5HttpClient.builder().expectContinueEnabled(false).build())
                .endpointOverride(env.minioProxy())
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(env.minioAccessKey(), env.minioSecretKey())))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .build();
    }

    BlobContainerClient azureClient() {
        return new BlobContainerClientBuilder()
                .httpClient(new JdkHttpClientBuilder().build())
                .endpoint(env.azuriteProxy().toString())
                .credential(new StorageSharedKeyCredential(env.azuriteAccount(), env.azuriteKey()))
                .containerName(BUCKET)
                .buildClient();
    }
}
