/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * A part upload still in flight when its multipart upload is aborted or completed (aws-cli aborts an upload while
 * its other parts are still being sent): the late part must leave no record behind, so the upload is gone for good
 * and its bucket, once emptied, can be deleted.
 */
class LatePartsTest {
    /** Holds the puts of the first chunk of key "late" (a part's bytes). */
    private final FirstKeyHold gates = new FirstKeyHold(key -> key.contains("late"));
    private Hybris hybris;
    private S3Gateway gateway;
    private S3Client s3;

    @BeforeEach
    void start() {
        hybris = Hybris.open(GatewayFixture.config(new InMemoryMetadataStore(), gates.clouds, Duration.ofSeconds(30))
                .build());
        gateway = GatewayFixture.startOver(hybris);
        s3 = GatewayFixture.clientOf(gateway, true);
        s3.createBucket(b -> b.bucket("bkt"));
    }

    @AfterEach
    void stop() {
        gates.hold(false);
        s3.close();
        gateway.close();
        hybris.close();
    }

    /** Starts uploading part {@code n} of {@code uploadId} and waits until its bytes are held at the clouds. */
    private CompletableFuture<Throwable> heldPart(String uploadId, int n) {
        gates.hold(true);
        CompletableFuture<Throwable> part = CompletableFuture.supplyAsync(() -> catchThrowable(() ->
                s3.uploadPart(b -> b.bucket("bkt").key("late").uploadId(uploadId).partNumber(n),
                        RequestBody.fromString("late part " + n))));
        gates.awaitHeld();
        return part;
    }

    private void assertNoUploadStateLeftAndTheBucketCanGo(Throwable late) {
        assertThat(hybris.list(Buckets.UPLOADS)).as("no record or part receipt of the upload is left").isEmpty();
        assertThat(s3.listMultipartUploads(b -> b.bucket("bkt")).uploads()).isEmpty();
        s3.deleteObject(b -> b.bucket("bkt").key("late"));
        assertThat(catchThrowable(() -> s3.deleteBucket(b -> b.bucket("bkt"))))
                .as("the emptied bucket can be deleted").isNull();
        assertThat(late).as("the late part is refused").isInstanceOf(S3Exception.class);
        assertThat(((S3Exception) late).awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload");
    }

    @Test
    void aPartThatLandsAfterItsUploadWasAbortedLeavesNothing() throws Exception {
        String id = s3.createMultipartUpload(b -> b.bucket("bkt").key("late")).uploadId();
        CompletableFuture<Throwable> part = heldPart(id, 1);
        s3.abortMultipartUpload(b -> b.bucket("bkt").key("late").uploadId(id));
        gates.hold(false);
        assertNoUploadStateLeftAndTheBucketCanGo(part.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aPartThatLandsAfterItsUploadCompletedLeavesNothing() throws Exception {
        String id = s3.createMultipartUpload(b -> b.bucket("bkt").key("late")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket("bkt").key("late").uploadId(id).partNumber(1),
                RequestBody.fromString("part 1")).eTag();
        CompletableFuture<Throwable> part = heldPart(id, 2);
        s3.completeMultipartUpload(b -> b.bucket("bkt").key("late").uploadId(id)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e1).build())));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("late")).asUtf8String()).isEqualTo("part 1");
        gates.hold(false);
        assertNoUploadStateLeftAndTheBucketCanGo(part.get(30, TimeUnit.SECONDS));
    }
}
