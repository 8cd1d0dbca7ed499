/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The gateway at its documented limits: user metadata at the most a request may carry (the gateway's own ETag and
 * modification time are added to it, within Hybris's {@code PutOptions.MAX_METADATA_BYTES}), ListParts from part
 * number markers 0 and 10,000, and Range headers at and past the ends of an object.
 */
class GatewayLimitsTest extends GatewayFixture {
    /**
     * The most bytes of metadata a request may carry: Hybris's 2048 less the gateway's ETag (a multipart ETag of
     * 10,000 parts: 38 characters) and modification time (13 digits), under their names.
     */
    private static final int LIMIT = 2048 - ("s3.etag".length() + 38) - ("s3.mtime".length() + 13);

    private static void assertS3Error(Throwable t, int status, String code) {
        assertThat(t).isInstanceOfSatisfying(software.amazon.awssdk.services.s3.model.S3Exception.class, e -> {
            assertThat(e.statusCode()).isEqualTo(status);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
        });
    }

    /** A value for {@code x-amz-meta-a} making the request's metadata (Content-Type "a") exactly {@code total}. */
    private static String metaValue(int total) {
        return "v".repeat(total - "s3.ct".length() - "a".length() - "m.a".length());
    }

    /** The most metadata the gateway accepts is stored, by PutObject and by a multipart upload. */
    @Test
    void metadataAtTheLimitIsStored() {
        s3.createBucket(b -> b.bucket("meta"));
        String value = metaValue(LIMIT);
        s3.putObject(b -> b.bucket("meta").key("put").contentType("a").metadata(Map.of("a", value)),
                RequestBody.fromString("body"));
        assertThat(s3.headObject(b -> b.bucket("meta").key("put")).metadata()).containsEntry("a", value);

        String id = s3.createMultipartUpload(b -> b.bucket("meta").key("mpu").contentType("a")
                .metadata(Map.of("a", value))).uploadId();
        String etag = s3.uploadPart(b -> b.bucket("meta").key("mpu").uploadId(id).partNumber(10_000),
                RequestBody.fromString("part")).eTag();
        s3.completeMultipartUpload(b -> b.bucket("meta").key("mpu").uploadId(id)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(10_000).eTag(etag).build())));
        var head = s3.headObject(b -> b.bucket("meta").key("mpu"));
        assertThat(head.metadata()).containsEntry("a", value);
        assertThat(head.eTag()).endsWith("-1\"");
    }

    /** One byte more is MetadataTooLarge before the body is read, and nothing is stored. */
    @Test
    void metadataOneByteAboveTheLimitIsMetadataTooLarge() {
        s3.createBucket(b -> b.bucket("meta2"));
        String value = metaValue(LIMIT + 1);
        assertThatThrownBy(() -> s3.putObject(b -> b.bucket("meta2").key("put").contentType("a")
                .metadata(Map.of("a", value)), RequestBody.fromString("body")))
                .satisfies(t -> assertS3Error(t, 400, "MetadataTooLarge"));
        assertThat(s3.listObjectsV2(b -> b.bucket("meta2")).keyCount()).isZero();
    }

    /** Metadata is counted in UTF-8 bytes, as Hybris (and S3) count it: a Latin-1 character takes two. */
    @Test
    void metadataIsCountedInUtf8Bytes() {
        s3.createBucket(b -> b.bucket("meta3"));
        String value = "\u00e9".repeat(LIMIT / 2);
        assertThatThrownBy(() -> s3.putObject(b -> b.bucket("meta3").key("put").contentType("a")
                .metadata(Map.of("a", value)), RequestBody.fromString("body")))
                .satisfies(t -> assertS3Error(t, 400, "MetadataTooLarge"));
    }

    /**
     * Metadata that CreateMultipartUpload accepts never fails the upload's completion (once every part is stored):
     * it is refused up front instead. Before, 2,000 bytes (the gateway's old count) were accepted, and the complete
     * failed with InvalidArgument as the ETag and time took the entry past Hybris's 2048 bytes.
     */
    @Test
    void metadataAcceptedAtCreateNeverFailsTheComplete() {
        s3.createBucket(b -> b.bucket("meta4"));
        for (int total : new int[] {LIMIT + 1, 1990, 2000}) {
            String value = metaValue(total);
            String id;
            try {
                id = s3.createMultipartUpload(b -> b.bucket("meta4").key("k" + total).contentType("a")
                        .metadata(Map.of("a", value))).uploadId();
            } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
                assertS3Error(e, 400, "MetadataTooLarge");
                continue;
            }
            String etag = s3.uploadPart(b -> b.bucket("meta4").key("k" + total).uploadId(id).partNumber(1),
                    RequestBody.fromString("part")).eTag();
            s3.completeMultipartUpload(b -> b.bucket("meta4").key("k" + total).uploadId(id)
                    .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
            assertThat(s3.headObject(b -> b.bucket("meta4").key("k" + total)).metadata()).containsEntry("a", value);
        }
    }

    /**
     * ListParts takes any part-number-marker S3 takes: 0 (the start, which minio-go sends for its first page) and
     * the last part number 10,000 (nothing after it); a negative one is InvalidArgument.
     */
    @Test
    void listPartsFromMarkerZeroAndTenThousand() {
        s3.createBucket(b -> b.bucket("parts"));
        String id = s3.createMultipartUpload(b -> b.bucket("parts").key("k")).uploadId();
        for (int n : new int[] {1, 10_000}) {
            s3.uploadPart(b -> b.bucket("parts").key("k").uploadId(id).partNumber(n), RequestBody.fromString("p"));
        }
        assertThat(s3.listParts(b -> b.bucket("parts").key("k").uploadId(id).partNumberMarker(0)).parts())
                .extracting(p -> p.partNumber()).containsExactly(1, 10_000);
        var fromLast = s3.listParts(b -> b.bucket("parts").key("k").uploadId(id).partNumberMarker(10_000));
        assertThat(fromLast.parts()).isEmpty();
        assertThat(fromLast.isTruncated()).isFalse();
        assertThatThrownBy(() -> s3.listParts(b -> b.bucket("parts").key("k").uploadId(id).partNumberMarker(-1)))
                .satisfies(t -> assertS3Error(t, 400, "InvalidArgument"));
    }

    /** The status line, Content-Range (or "none") and body of a GET of {@code path} with {@code range}. */
    private String ranged(String path, String range) throws Exception {
        String response = RawRequests.exchange(gateway.endpoint(), "GET", path, Map.of("range", range), new byte[0]);
        String status = response.substring(0, response.indexOf("\r\n"));
        String contentRange = response.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT)
                .startsWith("content-range:")).map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst()
                .orElse("none");
        String body = response.substring(response.indexOf("\r\n\r\n") + 4);
        return status.substring("HTTP/1.1 ".length(), "HTTP/1.1 ".length() + 3) + " " + contentRange
                + (status.startsWith("HTTP/1.1 2") ? " " + body : "");
    }

    /**
     * Ranges at and past the ends of a 10-byte object, as HTTP (RFC 9110) and S3 answer them: a zero-length suffix
     * selects nothing (416, not the whole object); numbers too large for a long are still numbers (a first byte
     * past any end is 416, a last byte or suffix past it is cut to the end); a sign is not a digit (the header is
     * ignored and the whole object served).
     */
    @Test
    void rangesAtAndPastTheEnds() throws Exception {
        s3.createBucket(b -> b.bucket("ranges"));
        s3.putObject(b -> b.bucket("ranges").key("ten"), RequestBody.fromString("0123456789"));
        s3.putObject(b -> b.bucket("ranges").key("empty"), RequestBody.fromBytes(new byte[0]));
        String huge = "99999999999999999999";
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        expected.put("bytes=0-", "206 bytes 0-9/10 0123456789");
        expected.put("bytes=9-", "206 bytes 9-9/10 9");
        expected.put("bytes=9-9", "206 bytes 9-9/10 9");
        expected.put("bytes=0-" + Long.MAX_VALUE, "206 bytes 0-9/10 0123456789");
        expected.put("bytes=-1", "206 bytes 9-9/10 9");
        expected.put("bytes=-10", "206 bytes 0-9/10 0123456789");
        expected.put("bytes=-11", "206 bytes 0-9/10 0123456789");
        expected.put("bytes=-" + Long.MAX_VALUE, "206 bytes 0-9/10 0123456789");
        expected.put("bytes=10-", "416 bytes */10");
        expected.put("bytes=10-10", "416 bytes */10");
        expected.put("bytes=" + Long.MAX_VALUE + "-", "416 bytes */10");
        expected.put("bytes=-0", "416 bytes */10");
        expected.put("bytes=" + huge + "-", "416 bytes */10");
        expected.put("bytes=3-" + huge, "206 bytes 3-9/10 3456789");
        expected.put("bytes=-" + huge, "206 bytes 0-9/10 0123456789");
        expected.put("bytes=0-0,2-3", "200 none 0123456789");
        expected.put("bytes=5-2", "200 none 0123456789");
        expected.put("bytes=+1-2", "200 none 0123456789");
        expected.put("bytes=1-+2", "200 none 0123456789");
        expected.put("bytes=-+2", "200 none 0123456789");
        expected.put("bytes=--2", "200 none 0123456789");
        Map<String, String> got = new java.util.LinkedHashMap<>();
        for (String range : expected.keySet()) {
            got.put(range, ranged("/ranges/ten", range));
        }
        assertThat(got).containsExactlyEntriesOf(expected);
        for (String range : new String[] {"bytes=-0", "bytes=-1", "bytes=0-", "bytes=" + huge + "-"}) {
            assertThat(ranged("/ranges/empty", range)).as(range).isEqualTo("416 bytes */0");
        }
    }
}
