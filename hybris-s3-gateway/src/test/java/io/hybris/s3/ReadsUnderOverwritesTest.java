/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Ranged GETs, HEADs and CopyObjects of a chunked key while two clients keep overwriting it: every answer is one
 * whole version — its bytes, length, Content-Range and ETag agree — never a mix of two. A CopyObject whose source
 * is overwritten while it is read (and whose remaining chunks are removed) reads the new version again instead of
 * failing; a ranged GET may be cut short in that case (its headers are out), never completed with other bytes.
 */
class ReadsUnderOverwritesTest extends GatewayFixture {
    private static final int BASE = (2 << 20) + 17;

    /** Version {@code v}: every byte is {@code v % 251}, and its length says {@code v} too. */
    private static byte[] value(int v) {
        byte[] b = new byte[BASE - v % 7];
        java.util.Arrays.fill(b, (byte) (v % 251));
        return b;
    }

    /** The version a PUT answered with {@code etag} (its answer may reach the writer just after a reader saw it). */
    private static int version(Map<String, Integer> versions, String etag) {
        await().atMost(Duration.ofSeconds(30)).until(() -> versions.containsKey(etag));
        return versions.get(etag);
    }

    private static String md5(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(b));
    }

    @Test
    void rangedGetsHeadsAndCopiesSeeOneWholeVersionWhileTheKeyIsOverwritten() throws Exception {
        s3.createBucket(b -> b.bucket("race"));
        Map<String, Integer> versions = new ConcurrentHashMap<>(); // ETag -> version
        byte[] first = value(1);
        versions.put(s3.putObject(b -> b.bucket("race").key("k"), RequestBody.fromBytes(first)).eTag(), 1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger truncated = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int start = 2 + w;
            writers.add(pool.submit(() -> {
                for (int v = start; !stop.get(); v += 2) {
                    byte[] body = value(v);
                    String etag = s3.putObject(b -> b.bucket("race").key("k"), RequestBody.fromBytes(body)).eTag();
                    versions.put(etag, v);
                }
                return null;
            }));
        }
        Future<?> ranges = pool.submit(() -> {
            Random random = new Random(3);
            for (int i = 0; i < 12; i++) {
                long a = random.nextInt(BASE - 100);
                long z = a + random.nextInt(1 << 20);
                ResponseBytes<GetObjectResponse> got;
                try {
                    got = s3.getObjectAsBytes(b -> b.bucket("race").key("k").range("bytes=" + a + "-" + z));
                } catch (SdkClientException cutShort) {
                    // the version was overwritten and its chunks removed while it streamed: the body is cut short
                    // (the client sees its Content-Length unmet), never completed with another version's bytes
                    truncated.incrementAndGet();
                    continue;
                }
                int v = version(versions, got.response().eTag());
                byte[] whole = value(v);
                long last = Math.min(z, whole.length - 1);
                assertThat(got.response().contentRange()).isEqualTo("bytes " + a + "-" + last + "/" + whole.length);
                byte[] bytes = got.asByteArray();
                assertThat(bytes.length).isEqualTo((int) (last - a + 1));
                for (byte x : bytes) {
                    assertThat(x).as("bytes of version %d only", v).isEqualTo((byte) (v % 251));
                }
            }
            return null;
        });
        Future<?> heads = pool.submit(() -> {
            for (int i = 0; i < 25; i++) {
                HeadObjectResponse h = s3.headObject(b -> b.bucket("race").key("k"));
                int v = version(versions, h.eTag());
                assertThat(h.contentLength()).isEqualTo(value(v).length);
            }
            return null;
        });
        Future<?> copies = pool.submit(() -> {
            for (int i = 0; i < 6; i++) {
                String etag = s3.copyObject(b -> b.sourceBucket("race").sourceKey("k").destinationBucket("race")
                        .destinationKey("copy")).copyObjectResult().eTag();
                byte[] copy = s3.getObjectAsBytes(b -> b.bucket("race").key("copy")).asByteArray();
                assertThat(ObjectMetadata.quoted(md5(copy))).isEqualTo(etag);
                int v = version(versions, etag);
                assertThat(copy).isEqualTo(value(v));
            }
            return null;
        });
        try {
            ranges.get(120, TimeUnit.SECONDS);
            heads.get(120, TimeUnit.SECONDS);
            copies.get(120, TimeUnit.SECONDS);
        } finally {
            stop.set(true);
            for (Future<?> w : writers) {
                w.get(60, TimeUnit.SECONDS);
            }
            pool.shutdownNow();
        }
        assertThat(versions.size()).as("the key was overwritten meanwhile").isGreaterThan(3);
        assertThat(truncated.get()).as("ranged GETs cut short").isLessThan(12);
    }
}
