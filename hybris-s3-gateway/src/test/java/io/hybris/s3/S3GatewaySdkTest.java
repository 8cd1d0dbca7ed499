/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.HybrisListener.CloudOperation;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The gateway through the AWS SDK for Java v2: the operations, their headers, errors and edge cases. */
class S3GatewaySdkTest extends GatewayFixture {

    @Test
    void bucketsAreCreatedListedAndDeletedOnlyWhenEmpty() {
        s3.createBucket(b -> b.bucket("photos"));
        s3.headBucket(b -> b.bucket("photos"));
        assertThat(s3.listBuckets().buckets()).extracting(b -> b.name()).containsExactly("photos");
        assertThatThrownBy(() -> s3.createBucket(b -> b.bucket("photos"))).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BucketAlreadyOwnedByYou"));
        assertThatThrownBy(() -> s3.createBucket(b -> b.bucket("bad.name"))).isInstanceOfSatisfying(
                S3Exception.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidBucketName"));
        s3.putObject(b -> b.bucket("photos").key("a.jpg"), RequestBody.fromString("jpeg"));
        assertThatThrownBy(() -> s3.deleteBucket(b -> b.bucket("photos"))).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BucketNotEmpty"));
        s3.deleteObject(b -> b.bucket("photos").key("a.jpg"));
        s3.deleteBucket(b -> b.bucket("photos"));
        assertThat(s3.listBuckets().buckets()).isEmpty();
        assertThatThrownBy(() -> s3.putObject(b -> b.bucket("photos").key("x"), RequestBody.fromString("x")))
                .isInstanceOf(NoSuchBucketException.class);
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("photos").key("a.jpg")))
                .isInstanceOf(NoSuchBucketException.class);
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("never-made").key("k".repeat(300))))
                .isInstanceOf(NoSuchBucketException.class);
    }

    @Test
    void objectsRoundTripWithMetadataEtagAndRanges() throws Exception {
        s3.createBucket(b -> b.bucket("docs"));
        byte[] small = "hello, gateway".getBytes(StandardCharsets.UTF_8);
        byte[] large = new byte[3 * (1 << 20) + 123]; // chunked in Hybris (1 MiB chunks)
        new Random(7).nextBytes(large);
        for (Map.Entry<String, byte[]> e : Map.of("dir/small.txt", small, "large.bin", large).entrySet()) {
            String etag = s3.putObject(b -> b.bucket("docs").key(e.getKey()).contentType("text/plain")
                    .metadata(Map.of("mtime", "1732435200.5", "owner", "alice")), RequestBody.fromBytes(e.getValue()))
                    .eTag();
            assertThat(etag).isEqualTo("\"" + md5(e.getValue()) + "\"");
            ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(b -> b.bucket("docs").key(e.getKey()));
            assertThat(got.asByteArray()).isEqualTo(e.getValue());
            assertThat(got.response().eTag()).isEqualTo(etag);
            assertThat(got.response().contentType()).isEqualTo("text/plain");
            assertThat(got.response().metadata()).containsEntry("mtime", "1732435200.5").containsEntry("owner",
                    "alice");
            HeadObjectResponse head = s3.headObject(b -> b.bucket("docs").key(e.getKey()));
            assertThat(head.contentLength()).isEqualTo(e.getValue().length);
            assertThat(head.eTag()).isEqualTo(etag);
        }
        // ranges at chunk boundaries, open-ended and suffix
        int mib = 1 << 20;
        for (long[] r : new long[][] {{0, 0}, {mib - 1, mib}, {mib, 2L * mib - 1}, {large.length - 1, large.length - 1}}) {
            byte[] part = s3.getObjectAsBytes(b -> b.bucket("docs").key("large.bin").range("bytes=" + r[0] + "-" + r[1]))
                    .asByteArray();
            assertThat(part).isEqualTo(java.util.Arrays.copyOfRange(large, (int) r[0], (int) r[1] + 1));
        }
        assertThat(s3.getObjectAsBytes(b -> b.bucket("docs").key("large.bin").range("bytes=-10")).asByteArray())
                .isEqualTo(java.util.Arrays.copyOfRange(large, large.length - 10, large.length));
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("docs").key("large.bin")
                .range("bytes=" + large.length + "-"))).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.statusCode()).isEqualTo(416));
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("docs").key("missing")))
                .isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void headObjectAnswersFromMetadataWithoutACloudRequest() {
        s3.createBucket(b -> b.bucket("heads"));
        byte[] large = new byte[2 * (1 << 20) + 5]; // chunked
        String etag = s3.putObject(b -> b.bucket("heads").key("large.bin").contentType("application/x-test")
                .metadata(Map.of("owner", "bob")), RequestBody.fromBytes(large)).eTag();
        s3.putObject(b -> b.bucket("heads").key("small.txt"), RequestBody.fromString("small"));
        long cloudGets = cloudGets();

        HeadObjectResponse head = s3.headObject(b -> b.bucket("heads").key("large.bin"));
        assertThat(head.contentLength()).isEqualTo(large.length);
        assertThat(head.eTag()).isEqualTo(etag);
        assertThat(head.contentType()).isEqualTo("application/x-test");
        assertThat(head.metadata()).containsEntry("owner", "bob");
        assertThat(s3.headObject(b -> b.bucket("heads").key("small.txt")).contentLength()).isEqualTo(5);
        assertThatThrownBy(() -> s3.headObject(b -> b.bucket("heads").key("large.bin").ifNoneMatch(etag)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(304));
        assertThatThrownBy(() -> s3.headObject(b -> b.bucket("heads").key("large.bin").ifMatch("\"other\"")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
        assertThatThrownBy(() -> s3.headObject(b -> b.bucket("heads").key("missing")))
                .isInstanceOf(NoSuchKeyException.class);
        assertThat(cloudGets()).as("no HEAD asked a cloud").isEqualTo(cloudGets);

        assertThat(s3.headObject(b -> b.bucket("heads").key("large.bin").range("bytes=0-9")).contentLength())
                .as("a ranged HEAD still reads the range").isEqualTo(10);
    }

    private long cloudGets() {
        return events.requests().stream().filter(r -> r.operation() == CloudOperation.GET).count();
    }

    @Test
    void conditionalPutsAndGets() {
        s3.createBucket(b -> b.bucket("cond"));
        String etag = s3.putObject(b -> b.bucket("cond").key("k").ifNoneMatch("*"), RequestBody.fromString("v1"))
                .eTag();
        assertThatThrownBy(() -> s3.putObject(b -> b.bucket("cond").key("k").ifNoneMatch("*"),
                RequestBody.fromString("v2"))).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.statusCode()).isEqualTo(412));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("cond").key("k")).asUtf8String()).isEqualTo("v1");
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("cond").key("k").ifMatch("\"nope\"")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("cond").key("k").ifNoneMatch(etag)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(304));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("cond").key("k").ifMatch(etag)).asUtf8String()).isEqualTo("v1");
    }

    @Test
    void multipartUploadIsOneObjectWithTheMultipartEtag() throws Exception {
        s3.createBucket(b -> b.bucket("mpu-test"));
        String uploadId = s3.createMultipartUpload(b -> b.bucket("mpu-test").key("big.bin").contentType("video/mp4"))
                .uploadId();
        byte[][] parts = {new byte[5 << 20], new byte[5 << 20], new byte[1234]};
        Random random = new Random(3);
        List<CompletedPart> done = new ArrayList<>();
        MessageDigest md5s = MessageDigest.getInstance("MD5");
        for (int i = 0; i < parts.length; i++) {
            random.nextBytes(parts[i]);
            int n = i + 1;
            byte[] bytes = parts[i];
            String etag = s3.uploadPart(b -> b.bucket("mpu-test").key("big.bin").uploadId(uploadId).partNumber(n),
                    RequestBody.fromBytes(bytes)).eTag();
            assertThat(etag).isEqualTo("\"" + md5(bytes) + "\"");
            done.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
            md5s.update(HexFormat.of().parseHex(md5(bytes)));
        }
        assertThat(s3.listParts(b -> b.bucket("mpu-test").key("big.bin").uploadId(uploadId)).parts()).hasSize(3);
        String etag = s3.completeMultipartUpload(b -> b.bucket("mpu-test").key("big.bin").uploadId(uploadId)
                .multipartUpload(CompletedMultipartUpload.builder().parts(done).build())).eTag();
        assertThat(etag).isEqualTo("\"" + HexFormat.of().formatHex(md5s.digest()) + "-3\"");
        byte[] got = s3.getObjectAsBytes(b -> b.bucket("mpu-test").key("big.bin")).asByteArray();
        assertThat(got).hasSize(10 * (1 << 20) + 1234);
        assertThat(java.util.Arrays.copyOfRange(got, 5 << 20, 10 << 20)).isEqualTo(parts[1]);
        assertThat(s3.headObject(b -> b.bucket("mpu-test").key("big.bin")).contentType()).isEqualTo("video/mp4");
        assertThat(hybris.list(Buckets.UPLOADS)).as("parts and record deleted").isEmpty();
        assertThat(hybris.describe("mpu-test", "big.bin").orElseThrow().sequence())
                .as("the parts' chunks are the object's: the version the upload reserved").isEqualTo(1L << 32);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(objectsOf("mpu-test", "big.bin")).as("11 chunks and the manifest, on 2 clouds each, and"
                        + " nothing of the parts' records").hasSize(24));
        assertThatThrownBy(() -> s3.listParts(b -> b.bucket("mpu-test").key("big.bin").uploadId(uploadId)))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload"));
    }

    /** The names of the objects of {@code key} in {@code bucket} on every cloud. */
    private List<String> objectsOf(String bucket, String key) {
        String prefix = io.hybris.spi.VersionName.keyPrefix("hybris/", bucket, key);
        return clouds.stream().flatMap(c -> c.list(prefix).stream()).map(io.hybris.spi.CloudObject::key).toList();
    }

    @Test
    void anAbortedUploadLeavesNothingAndCannotComplete() {
        s3.createBucket(b -> b.bucket("mpu-abort"));
        s3.putObject(b -> b.bucket("mpu-abort").key("k"), RequestBody.fromString("kept"));
        String uploadId = s3.createMultipartUpload(b -> b.bucket("mpu-abort").key("k")).uploadId();
        byte[] bytes = new byte[3 << 20];
        new Random(5).nextBytes(bytes);
        String etag = s3.uploadPart(b -> b.bucket("mpu-abort").key("k").uploadId(uploadId).partNumber(1),
                RequestBody.fromBytes(bytes)).eTag();
        assertThat(objectsOf("mpu-abort", "k")).as("the old value, and 3 chunks on 2 clouds").hasSize(2 + 6);

        s3.abortMultipartUpload(b -> b.bucket("mpu-abort").key("k").uploadId(uploadId));

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(objectsOf("mpu-abort", "k")).as("only the old value").hasSize(2));
        assertThat(hybris.list(Buckets.UPLOADS)).isEmpty();
        assertThatThrownBy(() -> s3.completeMultipartUpload(b -> b.bucket("mpu-abort").key("k").uploadId(uploadId)
                .multipartUpload(CompletedMultipartUpload.builder().parts(CompletedPart.builder().partNumber(1)
                        .eTag(etag).build()).build()))).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload"));
        assertThatThrownBy(() -> s3.abortMultipartUpload(b -> b.bucket("mpu-abort").key("k").uploadId(uploadId)))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload"));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("mpu-abort").key("k")).asUtf8String()).isEqualTo("kept");
    }

    @Test
    void listingsPaginateWithDelimiterAndStartAfterInS3Order() {
        s3.createBucket(b -> b.bucket("list"));
        List<String> keys = List.of("a-b", "a/b", "a/c/d", "a/e", "b", "b/x", "c.txt");
        for (String k : keys) {
            s3.putObject(b -> b.bucket("list").key(k), RequestBody.fromString(k));
        }
        List<String> all = new ArrayList<>();
        String token = null;
        do {
            String t = token;
            ListObjectsV2Response page = s3.listObjectsV2(b -> b.bucket("list").maxKeys(2).continuationToken(t));
            page.contents().forEach(o -> all.add(o.key()));
            token = page.nextContinuationToken();
        } while (token != null);
        assertThat(all).containsExactly("a-b", "a/b", "a/c/d", "a/e", "b", "b/x", "c.txt"); // UTF-8 order
        ListObjectsV2Response top = s3.listObjectsV2(b -> b.bucket("list").delimiter("/"));
        assertThat(top.contents()).extracting(S3Object::key).containsExactly("a-b", "b", "c.txt");
        assertThat(top.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("a/", "b/");
        ListObjectsV2Response inA = s3.listObjectsV2(b -> b.bucket("list").prefix("a/").delimiter("/"));
        assertThat(inA.contents()).extracting(S3Object::key).containsExactly("a/b", "a/e");
        assertThat(inA.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("a/c/");
        assertThat(s3.listObjectsV2(b -> b.bucket("list").startAfter("a/e")).contents()).extracting(S3Object::key)
                .containsExactly("b", "b/x", "c.txt");
        assertThat(s3.listObjects(b -> b.bucket("list").prefix("b")).contents()).extracting(S3Object::key)
                .containsExactly("b", "b/x");
        S3Object first = s3.listObjectsV2(b -> b.bucket("list").prefix("c.")).contents().get(0);
        assertThat(first.size()).isEqualTo(5);
        assertThat(first.eTag()).isEqualTo("\"" + md5("c.txt".getBytes(StandardCharsets.UTF_8)) + "\"");

        // pages of two entries, common prefixes counted as entries and never repeated on the next page
        List<String> entries = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        token = null;
        do {
            String t = token;
            ListObjectsV2Response page = s3.listObjectsV2(b -> b.bucket("list").delimiter("/").maxKeys(2)
                    .continuationToken(t));
            page.contents().forEach(o -> entries.add(o.key()));
            page.commonPrefixes().forEach(p -> entries.add(p.prefix()));
            sizes.add(page.keyCount());
            token = page.nextContinuationToken();
        } while (token != null);
        assertThat(entries).containsExactlyInAnyOrder("a-b", "a/", "b", "b/", "c.txt");
        assertThat(sizes).containsExactly(2, 2, 1);

        // UTF-8 byte order, not Java's UTF-16 order: U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80)
        s3.putObject(b -> b.bucket("list").key("z\uD83D\uDE00"), RequestBody.fromString("emoji"));
        s3.putObject(b -> b.bucket("list").key("z\uFF21"), RequestBody.fromString("fullwidth"));
        assertThat(s3.listObjectsV2(b -> b.bucket("list").prefix("z")).contents()).extracting(S3Object::key)
                .containsExactly("z\uFF21", "z\uD83D\uDE00");
        assertThat(s3.listObjectsV2(b -> b.bucket("list").prefix("z").maxKeys(1)).contents())
                .extracting(S3Object::key).containsExactly("z\uFF21");
    }

    @Test
    void pagesOfKeysWithEscapedCharactersMatchS3sOrderWithAndWithoutADelimiter() {
        s3.createBucket(b -> b.bucket("order"));
        String[] pieces = {"a", "b", "-", ".", "/", "{", "\u00e9", "~", "_", "0"};
        Random random = new Random(5);
        TreeSet<String> keys = new TreeSet<>(Listings::compareUtf8);
        while (keys.size() < 40) {
            StringBuilder k = new StringBuilder(pieces[random.nextInt(2)]); // no leading '.' or '/'
            for (int i = random.nextInt(4); i >= 0; i--) {
                k.append(pieces[random.nextInt(pieces.length)]);
            }
            keys.add(k.toString());
        }
        for (String k : keys) {
            s3.putObject(b -> b.bucket("order").key(k), RequestBody.fromString(k));
        }
        for (String delimiter : new String[] {null, "/"}) {
            List<String> expected = new ArrayList<>();
            for (String k : keys) {
                int at = delimiter == null ? -1 : k.indexOf(delimiter);
                String entry = at < 0 ? k : k.substring(0, at + 1);
                if (!expected.contains(entry)) {
                    expected.add(entry);
                }
            }
            List<String> paged = new ArrayList<>();
            String token = null;
            do {
                String t = token;
                ListObjectsV2Response page = s3.listObjectsV2(b -> b.bucket("order").maxKeys(3).delimiter(delimiter)
                        .continuationToken(t));
                assertThat(page.keyCount()).isLessThanOrEqualTo(3);
                List<String> entries = new ArrayList<>();
                page.contents().forEach(o -> entries.add(o.key()));
                page.commonPrefixes().forEach(p -> entries.add(p.prefix()));
                entries.sort(Listings::compareUtf8);
                paged.addAll(entries);
                token = page.nextContinuationToken();
            } while (token != null);
            assertThat(paged).as("delimiter %s", delimiter).isEqualTo(expected);
        }
    }

    @Test
    void copyAndDeleteMany() {
        s3.createBucket(b -> b.bucket("copy-test"));
        s3.putObject(b -> b.bucket("copy-test").key("src").metadata(Map.of("color", "blue")), RequestBody.fromString("data"));
        s3.copyObject(b -> b.sourceBucket("copy-test").sourceKey("src").destinationBucket("copy-test").destinationKey("dst"));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("copy-test").key("dst")).asUtf8String()).isEqualTo("data");
        assertThat(s3.headObject(b -> b.bucket("copy-test").key("dst")).metadata()).containsEntry("color", "blue");
        s3.copyObject(b -> b.sourceBucket("copy-test").sourceKey("src").destinationBucket("copy-test").destinationKey("src")
                .metadataDirective("REPLACE").metadata(Map.of("color", "red")));
        assertThat(s3.headObject(b -> b.bucket("copy-test").key("src")).metadata()).containsEntry("color", "red");
        var result = s3.deleteObjects(b -> b.bucket("copy-test").delete(d -> d.objects(
                o -> o.key("src"), o -> o.key("dst"), o -> o.key("never-was"))));
        assertThat(result.deleted()).hasSize(3);
        assertThat(s3.listObjectsV2(b -> b.bucket("copy-test")).contents()).isEmpty();
    }

    @Test
    void wrongKeysAndUnsupportedOperationsGetTheirS3Errors() {
        s3.createBucket(b -> b.bucket("sec"));
        try (var wrong = client(ACCESS_KEY, "not-the-secret"); var unknown = client("NOSUCHKEY", "x")) {
            assertThatThrownBy(() -> wrong.listBuckets()).isInstanceOfSatisfying(S3Exception.class,
                    e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch"));
            assertThatThrownBy(() -> unknown.listBuckets()).isInstanceOfSatisfying(S3Exception.class,
                    e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidAccessKeyId"));
        }
        assertThatThrownBy(() -> s3.getBucketAcl(b -> b.bucket("sec"))).isInstanceOfSatisfying(S3Exception.class,
                e -> {
                    assertThat(e.statusCode()).isEqualTo(501);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NotImplemented");
                });
        String longKey = "k".repeat(300);
        assertThatThrownBy(() -> s3.putObject(b -> b.bucket("sec").key(longKey), RequestBody.fromString("x")))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("KeyTooLongError"));
    }

    static String md5(byte[] b) throws RuntimeException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
