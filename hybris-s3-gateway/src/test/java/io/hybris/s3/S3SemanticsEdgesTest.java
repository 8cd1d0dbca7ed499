/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * S3 semantics a review against S3's documentation found the gateway departing from, each test stating what S3
 * does: conditional deletes (DeleteObject {@code If-Match}, DeleteObjects {@code ETag}), CompleteMultipartUpload's
 * {@code If-None-Match} / {@code If-Match}, an upload whose complete failed staying abortable, ListMultipartUploads'
 * prefix, delimiter, order and paging, and the ranges of an empty object and a backwards range.
 */
class S3SemanticsEdgesTest extends GatewayFixture {

    private static void assertS3Error(Throwable t, int status, String code) {
        assertThat(t).isInstanceOfSatisfying(software.amazon.awssdk.services.s3.model.S3Exception.class, e -> {
            assertThat(e.statusCode()).isEqualTo(status);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
        });
    }

    /** S3: DeleteObject with If-Match that does not match the current ETag fails with 412 and deletes nothing. */
    @Test
    void conditionalDeleteObjectWithAStaleEtagMustNotDelete() {
        s3.createBucket(b -> b.bucket("cdel"));
        s3.putObject(b -> b.bucket("cdel").key("k"), RequestBody.fromString("precious"));
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() ->
                s3.deleteObject(b -> b.bucket("cdel").key("k").ifMatch("\"00000000000000000000000000000000\"")));
        assertThat(s3.listObjectsV2(b -> b.bucket("cdel")).keyCount()).as("the object survives").isEqualTo(1);
        assertS3Error(t, 412, "PreconditionFailed");
    }

    /** S3: DeleteObjects with an ETag per object deletes only objects whose ETag matches; others get an Error. */
    @Test
    void deleteObjectsWithAStaleEtagMustNotDelete() {
        s3.createBucket(b -> b.bucket("cdels"));
        s3.putObject(b -> b.bucket("cdels").key("k"), RequestBody.fromString("precious"));
        DeleteObjectsResponse r = s3.deleteObjects(b -> b.bucket("cdels").delete(d -> d.objects(
                ObjectIdentifier.builder().key("k").eTag("\"00000000000000000000000000000000\"").build())));
        assertThat(s3.listObjectsV2(b -> b.bucket("cdels")).keyCount()).as("the object survives").isEqualTo(1);
        assertThat(r.errors()).extracting(e -> e.code()).containsExactly("PreconditionFailed");
    }

    /** S3: DeleteObject with If-Match on a key that does not exist is 404 NoSuchKey. */
    @Test
    void conditionalDeleteOfAMissingKeyIsNoSuchKey() {
        s3.createBucket(b -> b.bucket("cdelm"));
        assertThatThrownBy(() -> s3.deleteObject(b -> b.bucket("cdelm").key("never").ifMatch("*")))
                .satisfies(t -> assertS3Error(t, 404, "NoSuchKey"));
    }

    /** S3: CompleteMultipartUpload with If-None-Match: * on an existing key is 412, and the object is unchanged. */
    @Test
    void completeMultipartUploadHonoursIfNoneMatch() {
        s3.createBucket(b -> b.bucket("cmpu"));
        s3.putObject(b -> b.bucket("cmpu").key("k"), RequestBody.fromString("original"));
        String id = s3.createMultipartUpload(b -> b.bucket("cmpu").key("k")).uploadId();
        String etag = s3.uploadPart(b -> b.bucket("cmpu").key("k").uploadId(id).partNumber(1),
                RequestBody.fromString("replacement")).eTag();
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> s3.completeMultipartUpload(b -> b
                .bucket("cmpu").key("k").uploadId(id).ifNoneMatch("*")
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build()))));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("cmpu").key("k")).asUtf8String()).as("not overwritten")
                .isEqualTo("original");
        assertS3Error(t, 412, "PreconditionFailed");
    }

    /** S3: CompleteMultipartUpload with If-Match naming another ETag is 412, and the object is unchanged. */
    @Test
    void completeMultipartUploadHonoursIfMatch() {
        s3.createBucket(b -> b.bucket("cmpu2"));
        s3.putObject(b -> b.bucket("cmpu2").key("k"), RequestBody.fromString("original"));
        String id = s3.createMultipartUpload(b -> b.bucket("cmpu2").key("k")).uploadId();
        String etag = s3.uploadPart(b -> b.bucket("cmpu2").key("k").uploadId(id).partNumber(1),
                RequestBody.fromString("replacement")).eTag();
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> s3.completeMultipartUpload(b -> b
                .bucket("cmpu2").key("k").uploadId(id).ifMatch("\"00000000000000000000000000000000\"")
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build()))));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("cmpu2").key("k")).asUtf8String()).as("not overwritten")
                .isEqualTo("original");
        assertS3Error(t, 412, "PreconditionFailed");
    }

    /**
     * A conditional complete retried after its first attempt committed (its answer lost, or its clean-up failed: the
     * record still "completing"): the precondition now sees the upload's own object, so the retry answers with that
     * object, as an unconditional retry does, instead of 412 with the upload stuck.
     */
    @Test
    void aConditionalCompleteRetriedAfterItCommittedReturnsTheObject() {
        s3.createBucket(b -> b.bucket("retry"));
        String id = s3.createMultipartUpload(b -> b.bucket("retry").key("k")).uploadId();
        String etag = s3.uploadPart(b -> b.bucket("retry").key("k").uploadId(id).partNumber(1),
                RequestBody.fromString("data")).eTag();
        Map<String, byte[]> records = new java.util.LinkedHashMap<>();
        Map<String, Map<String, String>> metadata = new java.util.LinkedHashMap<>();
        for (String k : hybris.list(Buckets.UPLOADS)) {
            records.put(k, hybris.get(Buckets.UPLOADS, k).orElseThrow());
            metadata.put(k, hybris.describe(Buckets.UPLOADS, k).orElseThrow().metadata());
        }
        String done = s3.completeMultipartUpload(b -> b.bucket("retry").key("k").uploadId(id).ifNoneMatch("*")
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build()))).eTag();
        // as if the first complete committed and then lost its answer before the clean-up: the records are back,
        // the upload's marked completing
        records.forEach((k, v) -> {
            String text = new String(v, java.nio.charset.StandardCharsets.ISO_8859_1);
            if (!k.substring(k.indexOf('/') + 1).contains("/")) {
                text = text.replace("state=open", "state=completing");
            }
            hybris.put(Buckets.UPLOADS, k, text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                    io.hybris.PutOptions.none().withMetadata(metadata.get(k)));
        });
        String again = s3.completeMultipartUpload(b -> b.bucket("retry").key("k").uploadId(id).ifNoneMatch("*")
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build()))).eTag();
        assertThat(again).isEqualTo(done);
        assertThat(hybris.list(Buckets.UPLOADS)).as("the upload's record and receipts cleaned up").isEmpty();
        assertThat(s3.getObjectAsBytes(b -> b.bucket("retry").key("k")).asUtf8String()).isEqualTo("data");
    }

    /**
     * A complete that fails after it marked its upload "completing" (here: OperationAborted, an upload of the key
     * started later completed first) leaves the upload stuck: it cannot be aborted, ListMultipartUploads hides it,
     * its records stay in hybris-s3-uploads, and the bucket can never be deleted. S3: a failed complete leaves the
     * upload abortable (or the upload is gone), and an emptied bucket can be deleted.
     */
    @Test
    void aFailedCompleteLeavesAnUploadThatCanNeitherBeAbortedNorListedAndBlocksDeleteBucket() {
        s3.createBucket(b -> b.bucket("stuck"));
        String first = s3.createMultipartUpload(b -> b.bucket("stuck").key("k")).uploadId();
        String second = s3.createMultipartUpload(b -> b.bucket("stuck").key("k")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket("stuck").key("k").uploadId(first).partNumber(1),
                RequestBody.fromString("first")).eTag();
        String e2 = s3.uploadPart(b -> b.bucket("stuck").key("k").uploadId(second).partNumber(1),
                RequestBody.fromString("second")).eTag();
        s3.completeMultipartUpload(b -> b.bucket("stuck").key("k").uploadId(second)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e2).build())));
        assertThatThrownBy(() -> s3.completeMultipartUpload(b -> b.bucket("stuck").key("k").uploadId(first)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e1).build()))))
                .satisfies(t -> assertS3Error(t, 200, "OperationAborted")); // the gateway's documented answer

        // the client gives up on it: abort, as the error suggests
        Throwable abort = org.assertj.core.api.Assertions.catchThrowable(() ->
                s3.abortMultipartUpload(b -> b.bucket("stuck").key("k").uploadId(first)));
        s3.deleteObject(b -> b.bucket("stuck").key("k"));
        Throwable deleteBucket = org.assertj.core.api.Assertions.catchThrowable(() ->
                s3.deleteBucket(b -> b.bucket("stuck")));
        assertThat(hybris.list(Buckets.UPLOADS)).as("the upload's record and part receipts are gone").isEmpty();
        assertThat(deleteBucket).as("the emptied bucket can be deleted").isNull();
        assertThat(abort).as("the upload can be aborted").isNull();
    }

    /** S3: ListMultipartUploads with prefix lists only uploads of keys under the prefix. */
    @Test
    void listMultipartUploadsHonoursPrefix() {
        s3.createBucket(b -> b.bucket("lmu"));
        for (String k : List.of("photos/1", "logs/1", "photos/2")) {
            s3.createMultipartUpload(b -> b.bucket("lmu").key(k));
        }
        assertThat(s3.listMultipartUploads(b -> b.bucket("lmu").prefix("photos/")).uploads())
                .extracting(MultipartUpload::key).containsExactly("photos/1", "photos/2");
    }

    /** S3: ListMultipartUploads lists uploads in key order, at most max-uploads, truncated beyond. */
    @Test
    void listMultipartUploadsIsInKeyOrderAndHonoursMaxUploads() {
        s3.createBucket(b -> b.bucket("lmu2"));
        for (String k : List.of("d", "b", "c", "a", "e")) {
            s3.createMultipartUpload(b -> b.bucket("lmu2").key(k));
        }
        assertThat(s3.listMultipartUploads(b -> b.bucket("lmu2")).uploads()).extracting(MultipartUpload::key)
                .containsExactly("a", "b", "c", "d", "e");
        var page = s3.listMultipartUploads(b -> b.bucket("lmu2").maxUploads(2));
        assertThat(page.uploads()).hasSize(2);
        assertThat(page.isTruncated()).isTrue();
    }

    /** S3: NextKeyMarker and NextUploadIdMarker page through every upload, two of one key included, once each. */
    @Test
    void listMultipartUploadsPagesWithItsMarkers() {
        s3.createBucket(b -> b.bucket("lmu4"));
        List<String> expected = new java.util.ArrayList<>();
        for (String k : List.of("c", "a", "b", "a", "d")) {
            String id = s3.createMultipartUpload(b -> b.bucket("lmu4").key(k)).uploadId();
            expected.add(k + " " + id);
        }
        expected.sort(null);
        List<String> seen = new java.util.ArrayList<>();
        String keyMarker = null;
        String idMarker = null;
        for (int pages = 0; pages < 10; pages++) {
            String km = keyMarker;
            String im = idMarker;
            var page = s3.listMultipartUploads(b -> b.bucket("lmu4").maxUploads(2).keyMarker(km).uploadIdMarker(im));
            page.uploads().forEach(u -> seen.add(u.key() + " " + u.uploadId()));
            if (!page.isTruncated()) {
                break;
            }
            assertThat(page.uploads()).hasSize(2);
            keyMarker = page.nextKeyMarker();
            idMarker = page.nextUploadIdMarker();
        }
        assertThat(seen).as("in key order, then upload id, each once").containsExactlyElementsOf(expected);
    }

    /** S3: ListMultipartUploads with a delimiter rolls keys up into CommonPrefixes. */
    @Test
    void listMultipartUploadsHonoursDelimiter() {
        s3.createBucket(b -> b.bucket("lmu3"));
        for (String k : List.of("dir/1", "dir/2", "top")) {
            s3.createMultipartUpload(b -> b.bucket("lmu3").key(k));
        }
        var r = s3.listMultipartUploads(b -> b.bucket("lmu3").delimiter("/"));
        assertThat(r.uploads()).extracting(MultipartUpload::key).containsExactly("top");
        assertThat(r.commonPrefixes()).extracting(p -> p.prefix()).containsExactly("dir/");
    }

    /**
     * S3: any Range on a zero-byte object is 416 InvalidRange (with Content-Range: bytes * /0). The gateway answers
     * "bytes=0-" with 206 and the malformed "Content-Range: bytes 0--1/0".
     */
    @Test
    void openRangeOnAnEmptyObjectIs416NotAMalformed206() throws Exception {
        s3.createBucket(b -> b.bucket("empty"));
        s3.putObject(b -> b.bucket("empty").key("zero"), RequestBody.fromBytes(new byte[0]));
        String response = RawRequests.exchange(gateway.endpoint(), "GET", "/empty/zero", Map.of("range", "bytes=0-"),
                new byte[0]);
        assertThat(response).doesNotContainIgnoringCase("content-range: bytes 0--1/0");
        assertThat(response).startsWith("HTTP/1.1 416");
    }

    /**
     * S3 (and RFC 9110) ignore a byte range whose last byte is before its first and serve the whole object (200).
     * The gateway serves one byte at the first offset with 206.
     */
    @Test
    void aRangeEndingBeforeItStartsIsIgnored() throws Exception {
        s3.createBucket(b -> b.bucket("backward"));
        s3.putObject(b -> b.bucket("backward").key("ten"), RequestBody.fromString("0123456789"));
        String response = RawRequests.exchange(gateway.endpoint(), "GET", "/backward/ten", Map.of("range", "bytes=5-2"),
                new byte[0]);
        assertThat(response).startsWith("HTTP/1.1 200");
        assertThat(response).endsWith("\r\n\r\n0123456789");
    }
}
