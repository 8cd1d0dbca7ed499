/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * CompleteMultipartUpload lists the parts in strictly ascending part number (docs/s3-gateway.md, InvalidPartOrder):
 * a part named twice, or parts out of order, are 400 InvalidPartOrder, nothing is committed, and the upload can
 * still be completed with a valid list.
 */
class CompletePartOrderTest extends GatewayFixture {
    private static void assertS3Error(Throwable t, int status, String code) {
        assertThat(t).isInstanceOfSatisfying(software.amazon.awssdk.services.s3.model.S3Exception.class, e -> {
            assertThat(e.statusCode()).isEqualTo(status);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
        });
    }

    private static CompletedPart part(int n, String etag) {
        return CompletedPart.builder().partNumber(n).eTag(etag).build();
    }

    @Test
    void aPartNamedTwiceOrPartsOutOfOrderAreInvalidPartOrder() {
        s3.createBucket(b -> b.bucket("order"));
        String id = s3.createMultipartUpload(b -> b.bucket("order").key("k")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket("order").key("k").uploadId(id).partNumber(1),
                RequestBody.fromString("one")).eTag();
        String e2 = s3.uploadPart(b -> b.bucket("order").key("k").uploadId(id).partNumber(2),
                RequestBody.fromString("two")).eTag();
        for (List<CompletedPart> parts : List.of(List.of(part(1, e1), part(1, e1)),
                List.of(part(2, e2), part(1, e1)))) {
            Throwable t = catchThrowable(() -> s3.completeMultipartUpload(b -> b.bucket("order").key("k")
                    .uploadId(id).multipartUpload(m -> m.parts(parts))));
            assertS3Error(t, 400, "InvalidPartOrder");
            assertThat(s3.listObjectsV2(b -> b.bucket("order")).contents()).as("nothing committed").isEmpty();
        }
        s3.completeMultipartUpload(b -> b.bucket("order").key("k").uploadId(id)
                .multipartUpload(m -> m.parts(part(2, e2))));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("order").key("k")).asUtf8String()).isEqualTo("two");
    }
}
