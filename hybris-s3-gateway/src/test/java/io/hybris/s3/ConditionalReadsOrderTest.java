/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conditional headers of a GET as RFC 9110 (section 13.2.2) and S3 evaluate them: the preconditions first, then
 * the Range; and a header whose date cannot be parsed is ignored. A client that resumes a download with
 * {@code Range: bytes=<what it has>-} and {@code If-Match: <the ETag it started from>} must learn that the object
 * changed (412), not be told by a 416 that it already has the whole (new, shorter) object.
 */
class ConditionalReadsOrderTest extends GatewayFixture {
    private static final String STALE = "\"00000000000000000000000000000000\"";

    private String etagOf(String bucket, String key) {
        return s3.headObject(b -> b.bucket(bucket).key(key)).eTag();
    }

    /** RFC 9110 13.1.4: a recipient MUST ignore If-Unmodified-Since if its value is not a valid HTTP-date. */
    @Test
    void anUnparsableIfUnmodifiedSinceIsIgnored() throws Exception {
        s3.createBucket(b -> b.bucket("ius"));
        s3.putObject(b -> b.bucket("ius").key("k"), RequestBody.fromString("0123456789"));
        String response = RawRequests.exchange(gateway.endpoint(), "GET", "/ius/k",
                Map.of("if-unmodified-since", "not-a-date"), new byte[0]);
        assertThat(response).startsWith("HTTP/1.1 200");
        assertThat(response).endsWith("\r\n\r\n0123456789");
    }

    /** A failed If-Match is 412 whatever the Range: the preconditions come before the range (RFC 9110 13.2.2). */
    @Test
    void aFailedIfMatchIs412EvenWhenTheRangeIsPastTheEnd() throws Exception {
        s3.createBucket(b -> b.bucket("imr"));
        s3.putObject(b -> b.bucket("imr").key("k"), RequestBody.fromString("0123456789"));
        String response = RawRequests.exchange(gateway.endpoint(), "GET", "/imr/k",
                Map.of("range", "bytes=10-", "if-match", STALE), new byte[0]);
        assertThat(response).startsWith("HTTP/1.1 412");
        assertThat(response).contains("<Code>PreconditionFailed</Code>");
    }

    /** An If-None-Match that matches is 304 whatever the Range. */
    @Test
    void aMatchingIfNoneMatchIs304EvenWhenTheRangeIsPastTheEnd() throws Exception {
        s3.createBucket(b -> b.bucket("inm"));
        s3.putObject(b -> b.bucket("inm").key("k"), RequestBody.fromString("0123456789"));
        String response = RawRequests.exchange(gateway.endpoint(), "GET", "/inm/k",
                Map.of("range", "bytes=10-", "if-none-match", etagOf("inm", "k")), new byte[0]);
        assertThat(response).startsWith("HTTP/1.1 304");
    }

    /** The same on an empty object, where every range is unsatisfiable. */
    @Test
    void aFailedIfMatchOnAnEmptyObjectIs412NotInvalidRange() throws Exception {
        s3.createBucket(b -> b.bucket("ime"));
        s3.putObject(b -> b.bucket("ime").key("k"), RequestBody.fromBytes(new byte[0]));
        String response = RawRequests.exchange(gateway.endpoint(), "GET", "/ime/k",
                Map.of("range", "bytes=0-", "if-match", STALE), new byte[0]);
        assertThat(response).startsWith("HTTP/1.1 412");
    }

    /**
     * The 416 of a range of an empty object is an XML error: it must not carry the object's Content-Encoding (a
     * client that honours it would try to gunzip the XML).
     */
    @Test
    void theInvalidRangeErrorOfAnEmptyObjectDoesNotCarryTheObjectsContentEncoding() throws Exception {
        s3.createBucket(b -> b.bucket("iee"));
        s3.putObject(b -> b.bucket("iee").key("k").contentEncoding("gzip"), RequestBody.fromBytes(new byte[0]));
        String response = RawRequests.exchange(gateway.endpoint(), "GET", "/iee/k", Map.of("range", "bytes=0-"),
                new byte[0]);
        assertThat(response).startsWith("HTTP/1.1 416");
        assertThat(response.substring(0, response.indexOf("\r\n\r\n"))).doesNotContainIgnoringCase("content-encoding");
    }
}
