/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The date preconditions of GET at their boundary (RFC 9110 13.1.3, 13.1.4): a client revalidating with the
 * Last-Modified it was given (If-Modified-Since equal to it) gets 304, and If-Unmodified-Since equal to it is met;
 * one second earlier, the object counts as modified (200, and 412 PreconditionFailed).
 */
class ModifiedSinceBoundaryTest extends GatewayFixture {
    private static void assertStatus(Throwable t, int status) {
        assertThat(t).isInstanceOfSatisfying(software.amazon.awssdk.services.s3.model.S3Exception.class,
                e -> assertThat(e.statusCode()).isEqualTo(status));
    }

    @Test
    void datePreconditionsEqualToLastModifiedCountAsNotModified() {
        s3.createBucket(b -> b.bucket("dates"));
        s3.putObject(b -> b.bucket("dates").key("k"), RequestBody.fromString("dated"));
        Instant lastModified = s3.headObject(b -> b.bucket("dates").key("k")).lastModified();
        Instant before = lastModified.minusSeconds(1);

        assertStatus(catchThrowable(() -> s3.getObjectAsBytes(b -> b.bucket("dates").key("k")
                .ifModifiedSince(lastModified))), 304);
        assertThat(s3.getObjectAsBytes(b -> b.bucket("dates").key("k").ifModifiedSince(before)).asUtf8String())
                .isEqualTo("dated");

        assertThat(s3.getObjectAsBytes(b -> b.bucket("dates").key("k").ifUnmodifiedSince(lastModified))
                .asUtf8String()).isEqualTo("dated");
        assertStatus(catchThrowable(() -> s3.getObjectAsBytes(b -> b.bucket("dates").key("k")
                .ifUnmodifiedSince(before))), 412);
    }
}
