/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import io.hybris.testkit.ForwardingCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A CompleteMultipartUpload that fails because too many clouds are down to store its manifest (before anything is
 * committed): the client gives up and aborts, as aws-cli, boto3 and rclone do, and the abort must work — the upload
 * must not stay {@code completing}, unlisted, unabortable, keeping its bucket from ever being deleted.
 */
class CompleteCloudOutageTest {
    /** A cloud whose writes of the object "k" (its chunks and manifests, not the gateway's records) fail when down. */
    private static final class DownForTheObject extends ForwardingCloudStore {
        volatile boolean down;

        DownForTheObject(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public void put(String objectKey, byte[] value) {
            if (down && objectKey.startsWith("hybris/bkt/k#")) {
                throw new TransientCloudException(id(), "injected: down for " + objectKey);
            }
            super.put(objectKey, value);
        }
    }

    private List<DownForTheObject> clouds;
    private Hybris hybris;
    private S3Gateway gateway;
    private S3Client s3;

    @BeforeEach
    void start() {
        clouds = List.of(new DownForTheObject(new InMemoryCloudStore("c0")),
                new DownForTheObject(new InMemoryCloudStore("c1")), new DownForTheObject(new InMemoryCloudStore("c2")));
        hybris = Hybris.open(GatewayFixture.config(new InMemoryMetadataStore(), clouds, Duration.ofSeconds(2)).build());
        gateway = GatewayFixture.startOver(hybris);
        s3 = GatewayFixture.clientOf(gateway, true);
    }

    @AfterEach
    void stop() {
        s3.close();
        gateway.close();
        hybris.close();
    }

    @Test
    void aCompleteThatFailedBeforeCommittingCanBeAbortedAndItsBucketDeleted() {
        s3.createBucket(b -> b.bucket("bkt"));
        String id = s3.createMultipartUpload(b -> b.bucket("bkt").key("k")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(1),
                RequestBody.fromString("the only part")).eTag();
        clouds.get(1).down = true;
        clouds.get(2).down = true; // two of three down for the object: its manifest cannot be stored
        Throwable complete = catchThrowable(() -> s3.completeMultipartUpload(b -> b.bucket("bkt").key("k")
                .uploadId(id).multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e1).build()))));
        assertThat(complete).isInstanceOf(S3Exception.class);
        assertThat(((S3Exception) complete).awsErrorDetails().errorCode()).isEqualTo("ServiceUnavailable");
        assertThat(hybris.describe("bkt", "k")).as("nothing committed").isEmpty();

        assertThat(s3.listMultipartUploads(b -> b.bucket("bkt")).uploads()).extracting(MultipartUpload::uploadId)
                .as("the upload is still listed").containsExactly(id);
        assertThat(catchThrowable(() -> s3.abortMultipartUpload(b -> b.bucket("bkt").key("k").uploadId(id))))
                .as("the client's abort works").isNull();
        assertThat(hybris.list(Buckets.UPLOADS)).isEmpty();
        assertThat(catchThrowable(() -> s3.deleteBucket(b -> b.bucket("bkt")))).isNull();
    }
}
