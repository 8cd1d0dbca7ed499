/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ranged GETs of a multipart object whose parts are not multiples of the chunk size (so its chunks do not line up
 * with the 1 MiB grid): every range, across part and chunk boundaries, returns exactly the bytes uploaded.
 */
class MultipartRangesTest extends GatewayFixture {
    @Test
    void rangesAcrossUnevenPartsReturnTheUploadedBytes() {
        s3.createBucket(b -> b.bucket("ranges"));
        int[] sizes = {(5 << 20) + 123, (5 << 20) + 7, 1000};
        Random random = new Random(42);
        byte[] all = new byte[Arrays.stream(sizes).sum()];
        random.nextBytes(all);
        String id = s3.createMultipartUpload(b -> b.bucket("ranges").key("k")).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        int offset = 0;
        for (int i = 0; i < sizes.length; i++) {
            int n = i + 1;
            byte[] part = Arrays.copyOfRange(all, offset, offset + sizes[i]);
            offset += sizes[i];
            String etag = s3.uploadPart(b -> b.bucket("ranges").key("k").uploadId(id).partNumber(n),
                    RequestBody.fromBytes(part)).eTag();
            parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
        }
        s3.completeMultipartUpload(b -> b.bucket("ranges").key("k").uploadId(id).multipartUpload(m -> m.parts(parts)));
        List<long[]> ranges = new ArrayList<>(List.of(new long[] {sizes[0] - 1, sizes[0]},
                new long[] {(1 << 20) - 1, (1 << 20) + 1}, new long[] {sizes[0] + sizes[1] - 5, all.length - 1},
                new long[] {0, all.length - 1}, new long[] {all.length - 1, all.length - 1}));
        for (int i = 0; i < 20; i++) {
            long first = random.nextInt(all.length);
            ranges.add(new long[] {first, Math.min(all.length - 1, first + random.nextInt(3 << 20))});
        }
        for (long[] r : ranges) {
            ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(b -> b.bucket("ranges").key("k")
                    .range("bytes=" + r[0] + "-" + r[1]));
            assertThat(got.response().contentRange()).isEqualTo("bytes " + r[0] + "-" + r[1] + "/" + all.length);
            assertThat(Arrays.equals(got.asByteArray(), Arrays.copyOfRange(all, (int) r[0], (int) r[1] + 1)))
                    .as("bytes %d-%d", r[0], r[1]).isTrue();
        }
        byte[] suffix = s3.getObjectAsBytes(b -> b.bucket("ranges").key("k").range("bytes=-1500")).asByteArray();
        assertThat(Arrays.equals(suffix, Arrays.copyOfRange(all, all.length - 1500, all.length))).isTrue();
    }
}
