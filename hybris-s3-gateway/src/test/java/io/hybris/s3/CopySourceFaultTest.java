/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.ByteConsumer;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import io.hybris.testkit.ForwardingCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A CopyObject whose source cannot be read to its end (its clouds fail after the copy began): the gateway's own
 * read failed, not the client's body, so the answer is a retryable 503 ServiceUnavailable — not 400 IncompleteBody,
 * which blames the client and which SDKs do not retry — and nothing is stored.
 */
class CopySourceFaultTest {
    /** Once armed, serves the first two objects of key "src" it is asked for and fails every other read of it. */
    private static final class FailingSourceReads extends ForwardingCloudStore {
        static volatile boolean armed;
        static final Set<String> served = ConcurrentHashMap.newKeySet();

        FailingSourceReads(CloudStore delegate) {
            super(delegate);
        }

        private void check(String objectKey) {
            if (armed && objectKey.contains("/src#") && !served.contains(objectKey)
                    && (served.size() >= 2 || !served.add(objectKey))) {
                throw new TransientCloudException(id(), "injected: reads of the source fail");
            }
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            check(objectKey);
            return super.get(objectKey, maxBytes);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes, ByteConsumer onBytes) {
            check(objectKey);
            return delegate().get(objectKey, maxBytes, onBytes);
        }
    }

    private Hybris hybris;
    private S3Gateway gateway;
    private S3Client s3;

    @BeforeEach
    void start() {
        FailingSourceReads.armed = false;
        FailingSourceReads.served.clear();
        hybris = Hybris.open(GatewayFixture.config(new InMemoryMetadataStore(), List.of("c0", "c1", "c2").stream()
                .map(id -> new FailingSourceReads(new InMemoryCloudStore(id))).toList(), Duration.ofSeconds(2)).build());
        gateway = GatewayFixture.startOver(hybris);
        s3 = GatewayFixture.clientOf(gateway, true);
    }

    @AfterEach
    void stop() {
        FailingSourceReads.armed = false;
        s3.close();
        gateway.close();
        hybris.close();
    }

    @Test
    void aCopyWhoseSourceReadFailsMidwayIsServiceUnavailableAndStoresNothing() {
        s3.createBucket(b -> b.bucket("bkt"));
        byte[] value = new byte[6 << 20];
        new Random(7).nextBytes(value);
        s3.putObject(b -> b.bucket("bkt").key("src"), RequestBody.fromBytes(value));
        FailingSourceReads.armed = true;
        Throwable copy = catchThrowable(() -> s3.copyObject(b -> b.sourceBucket("bkt").sourceKey("src")
                .destinationBucket("bkt").destinationKey("dst")));
        assertThat(copy).isInstanceOf(S3Exception.class);
        S3Exception e = (S3Exception) copy;
        assertThat(e.awsErrorDetails().errorCode() + " " + e.statusCode()).as(e.getMessage())
                .isEqualTo("ServiceUnavailable 503");
        assertThat(hybris.describe("bkt", "dst")).as("nothing stored").isEmpty();
    }
}
