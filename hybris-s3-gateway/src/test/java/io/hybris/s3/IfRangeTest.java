/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code If-Range} on a ranged GET (RFC 9110 13.1.5, which S3 honours): a client resuming a download sends
 * {@code Range: bytes=<what it has>-} with the ETag (or Last-Modified) of the object it started from; if the object
 * changed since, it must get the whole new object (200), never the rest of the new one appended to the start of the
 * old one. A weak entity-tag never matches, in {@code If-Range} as in {@code If-Match}.
 */
class IfRangeTest extends GatewayFixture {
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private String etagOf(String bucket, String key) {
        return s3.headObject(b -> b.bucket(bucket).key(key)).eTag();
    }

    private String lastModifiedOf(String bucket, String key) {
        return HTTP_DATE.format(s3.headObject(b -> b.bucket(bucket).key(key)).lastModified());
    }

    /** Creates {@code bucket} with key k holding {@code first}, then replaces it: the first version's ETag. */
    private String replaced(String bucket, String first, String second) {
        s3.createBucket(b -> b.bucket(bucket));
        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString(first));
        String started = etagOf(bucket, "k");
        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString(second));
        return started;
    }

    private String get(String method, String path, Map<String, String> headers) throws Exception {
        return RawRequests.exchange(gateway.endpoint(), method, path, headers, new byte[0]);
    }

    @Test
    void theRangeOfTheVersionTheClientNamesIsServed() throws Exception {
        s3.createBucket(b -> b.bucket("same"));
        s3.putObject(b -> b.bucket("same").key("k"), RequestBody.fromString("0123456789"));
        String byEtag = get("GET", "/same/k", Map.of("range", "bytes=4-", "if-range", etagOf("same", "k")));
        assertThat(byEtag).startsWith("HTTP/1.1 206").containsIgnoringCase("content-range: bytes 4-9/10")
                .endsWith("\r\n\r\n456789");
        String byDate = get("GET", "/same/k", Map.of("range", "bytes=4-", "if-range", lastModifiedOf("same", "k")));
        assertThat(byDate).startsWith("HTTP/1.1 206").endsWith("\r\n\r\n456789");
    }

    @Test
    void aChangedObjectIsServedWholeNotSpliced() throws Exception {
        String started = replaced("changed", "old value, first half", "a new value, longer than the old");

        String response = get("GET", "/changed/k", Map.of("range", "bytes=10-", "if-range", started));
        assertThat(response).startsWith("HTTP/1.1 200").doesNotContainIgnoringCase("content-range")
                .containsIgnoringCase("etag: " + etagOf("changed", "k"))
                .endsWith("\r\n\r\na new value, longer than the old");
    }

    @Test
    void aChangedObjectShorterThanTheRangeIsServedWholeNot416() throws Exception {
        String started = replaced("shorter", "a long first value of the key", "short");

        String response = get("GET", "/shorter/k", Map.of("range", "bytes=20-", "if-range", started));
        assertThat(response).startsWith("HTTP/1.1 200").endsWith("\r\n\r\nshort");
        // without If-Range the same request is unsatisfiable
        assertThat(get("GET", "/shorter/k", Map.of("range", "bytes=20-"))).startsWith("HTTP/1.1 416");
    }

    @Test
    void anOlderDateOrAWeakTagIsNoMatch() throws Exception {
        s3.createBucket(b -> b.bucket("weak"));
        s3.putObject(b -> b.bucket("weak").key("k"), RequestBody.fromString("0123456789"));
        String etag = etagOf("weak", "k");
        assertThat(get("GET", "/weak/k", Map.of("range", "bytes=4-", "if-range", "W/" + etag)))
                .startsWith("HTTP/1.1 200").endsWith("\r\n\r\n0123456789");
        assertThat(get("GET", "/weak/k", Map.of("range", "bytes=4-", "if-range", "Mon, 01 Jan 2001 00:00:00 GMT")))
                .startsWith("HTTP/1.1 200").endsWith("\r\n\r\n0123456789");
        assertThat(get("GET", "/weak/k", Map.of("range", "bytes=4-", "if-range", "not a validator")))
                .startsWith("HTTP/1.1 200").endsWith("\r\n\r\n0123456789");
        // If-Match compares strongly too (RFC 9110 8.8.3.2); If-None-Match weakly
        assertThat(get("GET", "/weak/k", Map.of("if-match", "W/" + etag))).startsWith("HTTP/1.1 412");
        assertThat(get("GET", "/weak/k", Map.of("if-none-match", "W/" + etag))).startsWith("HTTP/1.1 304");
    }

    @Test
    void aHeadWithAStaleIfRangeDescribesTheWholeObject() throws Exception {
        String started = replaced("head", "first", "the second value");

        String response = get("HEAD", "/head/k", Map.of("range", "bytes=2-", "if-range", started));
        assertThat(response).startsWith("HTTP/1.1 200").containsIgnoringCase("content-length: 16")
                .doesNotContainIgnoringCase("content-range");
    }
}
