/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.Outcome;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * S3 never acknowledges both a DeleteBucket and a PutObject into that bucket that was still running when the
 * bucket was found empty: one of them fails (BucketNotEmpty, or NoSuchBucket). The gateway checks the bucket before
 * the PUT's body arrives and finds the bucket empty while the PUT streams: both succeed, and the acknowledged object
 * is unreachable (NoSuchBucket) — and comes back in a bucket of that name created later. Now writes in flight on a
 * gateway make a DeleteBucket there fail (BucketNotEmpty); across gateways the race is documented (Buckets).
 */
class DeleteBucketUnderPutTest extends GatewayFixture {

    @Test
    void aPutAcknowledgedWhileItsBucketWasDeletedIsNotLost() throws Exception {
        s3.createBucket(b -> b.bucket("doomed"));
        byte[] body = new byte[3 << 20];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 31);
        }
        long putsBefore = cloudPuts();
        String response;
        Throwable deleteFailure;
        try (Socket s = new Socket(gateway.endpoint().getHost(), gateway.endpoint().getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(RawRequests.head(gateway.endpoint(), "PUT", "/doomed/late", Map.of(), body.length)
                    .getBytes(StandardCharsets.UTF_8));
            int firstPart = (1 << 20) + (1 << 19);
            out.write(body, 0, firstPart);
            out.flush();
            // the PUT is past its bucket check: its first chunk is on the clouds
            await().atMost(Duration.ofSeconds(20)).until(() -> cloudPuts() > putsBefore);
            deleteFailure = catchThrowable(() -> s3.deleteBucket(b -> b.bucket("doomed")));
            out.write(body, firstPart, body.length - firstPart);
            out.flush();
            InputStream in = s.getInputStream();
            response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        boolean putAcknowledged = response.startsWith("HTTP/1.1 200");
        boolean bucketDeleted = deleteFailure == null;
        assertThat(putAcknowledged && bucketDeleted)
                .as("both the PUT (%s) and the DeleteBucket were acknowledged; then ListBuckets names %s,"
                        + " ListObjectsV2 fails with %s, yet HEAD of the object fails with %s",
                        response.lines().findFirst().orElse(""),
                        s3.listBuckets().buckets().stream().map(b -> b.name()).toList(),
                        catchThrowable(() -> s3.listObjectsV2(b -> b.bucket("doomed"))),
                        catchThrowable(() -> s3.headObject(b -> b.bucket("doomed").key("late"))))
                .isFalse();
        // on one gateway: the DeleteBucket fails as S3's would once the object landed, and the object stays listed
        assertThat(putAcknowledged).as(response).isTrue();
        assertThat(deleteFailure).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BucketNotEmpty"));
        assertThat(s3.listObjectsV2(b -> b.bucket("doomed")).contents()).extracting(o -> o.key())
                .containsExactly("late");
    }

    private long cloudPuts() {
        return clouds.stream().mapToLong(c -> events.count(c.id(), CloudOperation.PUT, Outcome.OK)).sum();
    }
}
