/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Listing, copy and payload edges no other test guarded: ListObjects (V1) NextMarker with a delimiter,
 * encoding-type=url of keys, common prefixes and markers, a continuation token winning over start-after,
 * max-keys capped at 1,000, ListMultipartUploads paging with a delimiter and a key-marker alone, keys of exactly
 * 256 bytes, DeleteObjects of 1,000 keys, CopyObject of a key with '/', ' ', '+' and '%', the default Content-Type,
 * every checksum algorithm, and aws-chunked or signed bodies that must be refused.
 */
class ListingCopyPayloadEdgesTest extends GatewayFixture {

    private void put(String bucket, String key) {
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("v:" + key));
    }

    private String objectOrNull(String bucket, String key) {
        try {
            return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String();
        } catch (NoSuchKeyException e) {
            return null;
        }
    }

    private String get(String pathAndQuery) throws Exception {
        return RawRequests.exchange(gateway.endpoint(), "GET", pathAndQuery, Map.of(), new byte[0]);
    }

    /** S3: a truncated ListObjects (V1) with a delimiter names its NextMarker (here a common prefix). */
    @Test
    void aTruncatedV1ListingWithADelimiterNamesItsNextMarker() {
        s3.createBucket(b -> b.bucket("list-v1"));
        for (String k : List.of("a/1", "a/2", "b")) {
            put("list-v1", k);
        }
        ListObjectsResponse first = s3.listObjects(b -> b.bucket("list-v1").delimiter("/").maxKeys(1));
        assertThat(first.isTruncated()).isTrue();
        assertThat(first.contents()).isEmpty();
        assertThat(first.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("a/");
        assertThat(first.nextMarker()).isEqualTo("a/");
        ListObjectsResponse second = s3.listObjects(b -> b.bucket("list-v1").delimiter("/").maxKeys(1)
                .marker(first.nextMarker()));
        assertThat(second.commonPrefixes()).isEmpty();
        assertThat(second.contents()).extracting(S3Object::key).containsExactly("b");
        assertThat(second.isTruncated()).isFalse();
        assertThat(second.nextMarker()).isNull();
    }

    /** encoding-type=url: Key, CommonPrefixes' Prefix, Marker and StartAfter are all URL-encoded. */
    @Test
    void urlEncodedListingsEncodeKeysPrefixesAndMarkers() throws Exception {
        s3.createBucket(b -> b.bucket("enc"));
        for (String k : List.of("50%off", "a b/c", "a+b")) {
            put("enc", k);
        }
        String v1 = get("/enc?encoding-type=url&marker=50%25off");
        assertThat(v1).startsWith("HTTP/1.1 200").contains("<Marker>50%25off</Marker>")
                .contains("<Key>a%20b/c</Key>").contains("<Key>a%2Bb</Key>").doesNotContain("<Key>50%25off</Key>");
        String v2 = get("/enc?delimiter=%2F&encoding-type=url&list-type=2&start-after=50%25off");
        assertThat(v2).startsWith("HTTP/1.1 200").contains("<StartAfter>50%25off</StartAfter>")
                .contains("<Prefix>a%20b/</Prefix>").contains("<Key>a%2Bb</Key>").contains("<KeyCount>2</KeyCount>");
        // and through the SDK, which asks for encoding-type=url and decodes
        ListObjectsV2Response all = s3.listObjectsV2(b -> b.bucket("enc").delimiter("/"));
        assertThat(all.contents()).extracting(S3Object::key).containsExactly("50%off", "a+b");
        assertThat(all.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("a b/");
    }

    /** S3: a continuation token takes precedence over start-after (a paginator sends both on every page). */
    @Test
    void aContinuationTokenWinsOverStartAfter() {
        s3.createBucket(b -> b.bucket("tok"));
        for (String k : List.of("a", "b", "c", "d")) {
            put("tok", k);
        }
        ListObjectsV2Response first = s3.listObjectsV2(b -> b.bucket("tok").startAfter("a").maxKeys(1));
        assertThat(first.contents()).extracting(S3Object::key).containsExactly("b");
        ListObjectsV2Response second = s3.listObjectsV2(b -> b.bucket("tok").startAfter("a").maxKeys(1)
                .continuationToken(first.nextContinuationToken()));
        assertThat(second.contents()).extracting(S3Object::key).containsExactly("c");
        assertThat(second.startAfter()).isEqualTo("a");
        assertThat(s3.listObjectsV2(b -> b.bucket("tok").maxKeys(5000)).maxKeys()).as("S3's cap").isEqualTo(1000);
    }

    /** ListMultipartUploads paged one entry at a time with a delimiter lists each common prefix once. */
    @Test
    void uploadPagesWithADelimiterListACommonPrefixOnce() {
        s3.createBucket(b -> b.bucket("ups"));
        for (String k : List.of("a/1", "a/2", "b")) {
            s3.createMultipartUpload(b -> b.bucket("ups").key(k));
        }
        var first = s3.listMultipartUploads(b -> b.bucket("ups").delimiter("/").maxUploads(1));
        assertThat(first.isTruncated()).isTrue();
        assertThat(first.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("a/");
        assertThat(first.nextKeyMarker()).isEqualTo("a/");
        var second = s3.listMultipartUploads(b -> b.bucket("ups").delimiter("/").maxUploads(1)
                .keyMarker(first.nextKeyMarker()));
        assertThat(second.commonPrefixes()).isEmpty();
        assertThat(second.uploads()).extracting(MultipartUpload::key).containsExactly("b");
        assertThat(second.isTruncated()).isFalse();
    }

    /** S3: a key-marker without an upload-id-marker lists only uploads of keys after it. */
    @Test
    void aKeyMarkerAloneSkipsEveryUploadOfThatKey() {
        s3.createBucket(b -> b.bucket("ups2"));
        for (String k : List.of("k", "k", "m")) {
            s3.createMultipartUpload(b -> b.bucket("ups2").key(k));
        }
        assertThat(s3.listMultipartUploads(b -> b.bucket("ups2").keyMarker("k")).uploads())
                .extracting(MultipartUpload::key).containsExactly("m");
    }

    /** Hybris stores keys of up to 256 UTF-8 bytes: one of exactly 256 is stored, and DeleteObjects deletes it. */
    @Test
    void aKeyOfExactly256BytesIsStoredAndDeletedByDeleteObjects() {
        s3.createBucket(b -> b.bucket("long"));
        String key = "k".repeat(Keys.MAX_BYTES);
        put("long", key);
        assertThat(objectOrNull("long", key)).isEqualTo("v:" + key);
        var result = s3.deleteObjects(b -> b.bucket("long").delete(d -> d.objects(o -> o.key(key))));
        assertThat(result.errors()).isEmpty();
        assertThat(objectOrNull("long", key)).as("DeleteObjects reported it deleted").isNull();
    }

    /** A checksum the SDK computes with each algorithm the gateway knows verifies (CRC64NVME: its check value). */
    @Test
    void everyChecksumAlgorithmVerifies() throws Exception {
        s3.createBucket(b -> b.bucket("sums"));
        for (ChecksumAlgorithm a : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32_C,
                ChecksumAlgorithm.SHA1, ChecksumAlgorithm.SHA256)) {
            s3.putObject(b -> b.bucket("sums").key(a.toString()).checksumAlgorithm(a),
                    RequestBody.fromString("checksummed " + a));
            assertThat(objectOrNull("sums", a.toString())).isEqualTo("checksummed " + a);
        }
        // the check value of CRC-64/NVME ("123456789")
        Checksums crc64 = new Checksums("crc64nvme");
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        crc64.update(check, 0, check.length);
        assertThat(crc64.base64()).isEqualTo(java.util.Base64.getEncoder().encodeToString(
                java.nio.ByteBuffer.allocate(8).putLong(0xae8b14860a799888L).array()));
    }

    private String chunkedPut(String key, String body, Map<String, String> headers, String mode) throws Exception {
        URI e = gateway.endpoint();
        Map<String, String> extra = new LinkedHashMap<>(headers);
        extra.put("content-encoding", "aws-chunked");
        return RawRequests.send(e, S3AuthAndPayloadTest.signedHead(e, "PUT", "/chunky/" + key, extra, mode, "s3",
                Map.of(), (long) body.length()), body.getBytes(StandardCharsets.US_ASCII));
    }

    /** A chunk whose data is not followed by CRLF is a framing error: nothing is stored. */
    @Test
    void aChunkNotFollowedByCrlfIsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("chunky"));
        String answer = chunkedPut("junk", "5\r\nhelloXX\r\n0\r\n\r\n", Map.of("x-amz-decoded-content-length", "5"),
                "STREAMING-UNSIGNED-PAYLOAD-TRAILER");
        assertThat(answer).startsWith("HTTP/1.1 400").contains("IncompleteBody");
        assertThat(objectOrNull("chunky", "junk")).isNull();
    }

    /** A trailer announced by x-amz-trailer but not sent is InvalidRequest: nothing is stored. */
    @Test
    void anAnnouncedTrailerThatNeverComesIsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("chunky"));
        String answer = chunkedPut("notrailer", "5\r\nhello\r\n0\r\n\r\n", Map.of("x-amz-decoded-content-length",
                "5", "x-amz-trailer", "x-amz-checksum-crc32"), "STREAMING-UNSIGNED-PAYLOAD-TRAILER");
        assertThat(answer).startsWith("HTTP/1.1 400").contains("InvalidRequest");
        assertThat(objectOrNull("chunky", "notrailer")).isNull();
    }

    /** A signed aws-chunked body whose chunk carries no chunk-signature is SignatureDoesNotMatch. */
    @Test
    void aSignedChunkWithoutItsSignatureIsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("chunky"));
        String answer = chunkedPut("nosig", "5\r\nhello\r\n0\r\n\r\n", Map.of("x-amz-decoded-content-length", "5"),
                "STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
        assertThat(answer).startsWith("HTTP/1.1 403").contains("SignatureDoesNotMatch");
        assertThat(objectOrNull("chunky", "nosig")).isNull();
    }

    /** A PUT whose body does not match its signed x-amz-content-sha256 is refused and stores nothing. */
    @Test
    void aPutBodyNotMatchingItsSignedSha256IsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("chunky"));
        URI e = gateway.endpoint();
        String head = S3AuthAndPayloadTest.signedHead(e, "PUT", "/chunky/sha", Map.of(),
                SigV4.sha256Hex("hello".getBytes(StandardCharsets.US_ASCII)), "s3", Map.of(), 5L);
        String answer = RawRequests.send(e, head, "HELLO".getBytes(StandardCharsets.US_ASCII));
        assertThat(answer).startsWith("HTTP/1.1 400").contains("XAmzContentSHA256Mismatch");
        assertThat(objectOrNull("chunky", "sha")).isNull();
    }

    /** CopyObject (COPY) of a key with characters the copy source escapes keeps the content headers and metadata. */
    @Test
    void aCopyOfAnAwkwardKeyKeepsItsContentHeadersAndMetadata() {
        s3.createBucket(b -> b.bucket("copies"));
        String src = "dir/a b+c%d";
        s3.putObject(b -> b.bucket("copies").key(src).contentType("text/plain").contentDisposition("inline")
                .metadata(Map.of("color", "blue")), RequestBody.fromString("data"));
        s3.copyObject(b -> b.sourceBucket("copies").sourceKey(src).destinationBucket("copies").destinationKey("dst"));
        var head = s3.headObject(b -> b.bucket("copies").key("dst"));
        assertThat(head.contentType()).isEqualTo("text/plain");
        assertThat(head.contentDisposition()).isEqualTo("inline");
        assertThat(head.metadata()).isEqualTo(Map.of("color", "blue"));
        assertThat(objectOrNull("copies", "dst")).isEqualTo("data");
    }

    /** S3: an object PUT without a Content-Type is binary/octet-stream. */
    @Test
    void aPutWithoutAContentTypeIsBinaryOctetStream() throws Exception {
        s3.createBucket(b -> b.bucket("types"));
        String answer = RawRequests.exchange(gateway.endpoint(), "PUT", "/types/plain", Map.of(),
                "x".getBytes(StandardCharsets.US_ASCII));
        assertThat(answer).startsWith("HTTP/1.1 200");
        assertThat(s3.headObject(b -> b.bucket("types").key("plain")).contentType()).isEqualTo("binary/octet-stream");
    }

    /** S3: DeleteObjects takes up to 1,000 keys; 1,001 is MalformedXML. */
    @Test
    void deleteObjectsTakesExactlyAThousandKeys() {
        s3.createBucket(b -> b.bucket("many"));
        List<software.amazon.awssdk.services.s3.model.ObjectIdentifier> keys = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            keys.add(software.amazon.awssdk.services.s3.model.ObjectIdentifier.builder().key("k" + i).build());
        }
        assertThat(s3.deleteObjects(b -> b.bucket("many").delete(d -> d.objects(keys).quiet(true))).errors())
                .isEmpty();
        keys.add(software.amazon.awssdk.services.s3.model.ObjectIdentifier.builder().key("k1000").build());
        assertThatThrownBy(() -> s3.deleteObjects(b -> b.bucket("many").delete(d -> d.objects(keys).quiet(true))))
                .isInstanceOfSatisfying(software.amazon.awssdk.services.s3.model.S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("MalformedXML"));
    }
}
