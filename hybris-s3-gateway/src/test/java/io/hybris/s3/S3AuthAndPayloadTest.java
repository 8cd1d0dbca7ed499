/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Authentication and request handling as S3 documents them, where a review found the gateway departing (unsigned
 * x-amz-* headers, small bodies not checked against the signed SHA-256, a PUT without Content-Length, a scope of
 * another service, an invalid x-amz-content-sha256), and what it found right (aws-chunked failures store nothing,
 * HEAD errors have no body, presigned URLs for awkward keys, signed streaming chunks).
 */
class S3AuthAndPayloadTest extends GatewayFixture {
    private final HttpClient http = HttpClient.newHttpClient();

    // ---------------------------------------------------------------- helpers

    /**
     * A request head signed with SigV4 over host, x-amz-content-sha256, x-amz-date and {@code signedExtra};
     * {@code unsigned} headers are added after signing; {@code contentLength} null sends no Content-Length.
     */
    static String signedHead(URI endpoint, String method, String path, Map<String, String> signedExtra,
                             String payloadHash, String service, Map<String, String> unsigned, Long contentLength) {
        String amzDate = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").format(ZonedDateTime.now(ZoneOffset.UTC));
        String date = amzDate.substring(0, 8);
        Map<String, String> signed = new TreeMap<>();
        signed.put("host", endpoint.getHost() + ":" + endpoint.getPort());
        signed.put("x-amz-content-sha256", payloadHash);
        signed.put("x-amz-date", amzDate);
        signed.putAll(signedExtra);
        StringBuilder canonicalHeaders = new StringBuilder();
        signed.forEach((k, v) -> canonicalHeaders.append(k).append(':').append(v.trim()).append('\n'));
        String names = String.join(";", signed.keySet());
        int q = path.indexOf('?');
        String rawPath = q < 0 ? path : path.substring(0, q);
        String query = q < 0 ? "" : RawRequests.canonicalQuery(path.substring(q + 1));
        String canonical = method + "\n" + rawPath + "\n" + query + "\n" + canonicalHeaders + "\n" + names + "\n"
                + payloadHash;
        String scope = date + "/us-east-1/" + service + "/aws4_request";
        String toSign = SigV4.ALGORITHM + "\n" + amzDate + "\n" + scope + "\n" + SigV4.sha256Hex(canonical);
        String signature = SigV4.hex(SigV4.hmac(SigV4.signingKey(SECRET_KEY, date, "us-east-1", service), toSign));
        StringBuilder sb = new StringBuilder();
        sb.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        signed.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        sb.append("authorization: ").append(SigV4.ALGORITHM).append(" Credential=").append(ACCESS_KEY)
                .append('/').append(scope).append(", SignedHeaders=").append(names).append(", Signature=")
                .append(signature).append("\r\n");
        unsigned.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        if (contentLength != null) {
            sb.append("content-length: ").append(contentLength).append("\r\n");
        }
        sb.append("connection: close\r\n\r\n");
        return sb.toString();
    }

    /** Writes head and body, half-closes, returns the whole response. */
    private String send(String head, byte[] body) throws IOException {
        return RawRequests.send(gateway.endpoint(), head, body);
    }

    private String objectOrNull(String bucket, String key) {
        try {
            return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String();
        } catch (software.amazon.awssdk.services.s3.model.NoSuchKeyException e) {
            return null;
        }
    }

    // ---------------------------------------------------------------- security

    /**
     * A presigned PUT URL (SignedHeaders=host) lets its holder upload to one key. S3 refuses any x-amz-* header the
     * URL did not sign (403 AccessDenied, "There were headers present in the request which were not signed"). The
     * gateway dispatches on the unsigned x-amz-copy-source and copies any other object into the key.
     */
    @Test
    void presignedPutUrlCannotBeTurnedIntoACopyOfAnotherObjectByAnUnsignedHeader() throws Exception {
        s3.createBucket(b -> b.bucket("vault"));
        s3.createBucket(b -> b.bucket("dropbox"));
        s3.putObject(b -> b.bucket("vault").key("secret.txt"), RequestBody.fromString("TOP SECRET"));
        try (S3Presigner presigner = presigner()) {
            URL url = presigner.presignPutObject(p -> p.signatureDuration(Duration.ofMinutes(10))
                    .putObjectRequest(o -> o.bucket("dropbox").key("upload.txt"))).url();
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(url.toURI())
                    .header("x-amz-copy-source", "/vault/secret.txt")
                    .PUT(HttpRequest.BodyPublishers.ofString("my upload")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(objectOrNull("dropbox", "upload.txt")).as("the secret was copied into the upload key")
                    .isNotEqualTo("TOP SECRET");
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(403);
        }
    }

    /**
     * A header-signed PUT (signing host, x-amz-content-sha256, x-amz-date) captured on plain HTTP and replayed within
     * the 15 minutes with an added, unsigned x-amz-copy-source: S3 answers 403 (unsigned x-amz-* header); the gateway
     * performs a CopyObject nobody signed.
     */
    @Test
    void aSignedPutReplayedWithAnUnsignedCopySourceHeaderIsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("vault"));
        s3.putObject(b -> b.bucket("vault").key("secret.txt"), RequestBody.fromString("TOP SECRET"));
        String head = signedHead(gateway.endpoint(), "PUT", "/vault/public.txt", Map.of(), "UNSIGNED-PAYLOAD", "s3",
                Map.of("x-amz-copy-source", "/vault/secret.txt"), 0L);
        String answer = send(head, new byte[0]);
        assertThat(objectOrNull("vault", "public.txt")).isNull();
        assertThat(answer).startsWith("HTTP/1.1 403");
    }

    /**
     * DeleteObjects signed over the SHA-256 of its XML body (x-amz-content-sha256, what SDKs send over HTTP): a body
     * changed on the way (or in a replay) must fail with XAmzContentSHA256Mismatch. The gateway never checks the
     * XML body against the signed hash, so the tampered body deletes a key the client never named.
     */
    @Test
    void deleteObjectsWithABodyThatDoesNotMatchTheSignedSha256IsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("data"));
        s3.putObject(b -> b.bucket("data").key("scratch"), RequestBody.fromString("temp"));
        s3.putObject(b -> b.bucket("data").key("precious"), RequestBody.fromString("keep me"));
        byte[] signedBody = "<Delete><Object><Key>scratch</Key></Object></Delete>".getBytes(StandardCharsets.UTF_8);
        byte[] sentBody = "<Delete><Object><Key>precious</Key></Object></Delete>".getBytes(StandardCharsets.UTF_8);
        String head = signedHead(gateway.endpoint(), "POST", "/data?delete=", Map.of(),
                SigV4.sha256Hex(signedBody), "s3", Map.of(), (long) sentBody.length);
        String answer = send(head, sentBody);
        assertThat(objectOrNull("data", "precious")).as("deleted by a body nobody signed").isEqualTo("keep me");
        assertThat(answer).startsWith("HTTP/1.1 400").contains("XAmzContentSHA256Mismatch");
    }

    /**
     * The same for CompleteMultipartUpload: the signed hash of its XML is not checked, so a tampered body commits a
     * different part list (here: part 1 only, where the client named parts 1 and 2).
     */
    @Test
    void completeMultipartUploadWithABodyThatDoesNotMatchTheSignedSha256IsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("mpu"));
        String id = s3.createMultipartUpload(b -> b.bucket("mpu").key("big")).uploadId();
        byte[] p1 = new byte[5 << 20];
        String e1 = s3.uploadPart(b -> b.bucket("mpu").key("big").uploadId(id).partNumber(1),
                RequestBody.fromBytes(p1)).eTag();
        String e2 = s3.uploadPart(b -> b.bucket("mpu").key("big").uploadId(id).partNumber(2),
                RequestBody.fromString("tail")).eTag();
        byte[] signedBody = ("<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>" + e1
                + "</ETag></Part><Part><PartNumber>2</PartNumber><ETag>" + e2
                + "</ETag></Part></CompleteMultipartUpload>").getBytes(StandardCharsets.UTF_8);
        byte[] sentBody = ("<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>" + e1
                + "</ETag></Part></CompleteMultipartUpload>").getBytes(StandardCharsets.UTF_8);
        String head = signedHead(gateway.endpoint(), "POST", "/mpu/big?uploadId=" + id, Map.of(),
                SigV4.sha256Hex(signedBody), "s3", Map.of(), (long) sentBody.length);
        String answer = send(head, sentBody);
        assertThat(answer).contains("XAmzContentSHA256Mismatch");
    }


    // ---------------------------------------------------------------- request handling

    /**
     * A PUT with neither Content-Length nor Transfer-Encoding (an HTTP/1.0-style body delimited by closing the
     * connection): S3 answers 411 MissingContentLength and stores nothing. The JDK server takes the body as empty,
     * and the gateway stores an empty object in place of the client's bytes, with 200.
     */
    @Test
    void aPutWithoutContentLengthIsMissingContentLengthAndStoresNothing() throws Exception {
        s3.createBucket(b -> b.bucket("len"));
        String head = signedHead(gateway.endpoint(), "PUT", "/len/file.txt", Map.of(), "UNSIGNED-PAYLOAD", "s3",
                Map.of(), null);
        String answer = send(head, "the client's bytes".getBytes(StandardCharsets.UTF_8));
        assertThat(objectOrNull("len", "file.txt")).as("an empty object stored in place of the body").isNull();
        assertThat(answer).startsWith("HTTP/1.1 411").contains("MissingContentLength");
    }

    /**
     * The credential scope names the service; S3 refuses a scope for another service (AuthorizationHeaderMalformed,
     * "incorrect service"). The gateway accepts a signature made for any service.
     */
    @Test
    void aSignatureScopedToAnotherServiceIsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("scope"));
        String head = signedHead(gateway.endpoint(), "GET", "/scope", Map.of(), "UNSIGNED-PAYLOAD", "sts", Map.of(),
                0L);
        assertThat(send(head, new byte[0])).startsWith("HTTP/1.1 400");
    }

    /**
     * x-amz-content-sha256 must be a hex SHA-256, UNSIGNED-PAYLOAD or a STREAMING-* mode; S3 answers 400
     * InvalidArgument otherwise. The gateway treats any other value as UNSIGNED-PAYLOAD and stores the body unchecked.
     */
    @Test
    void anInvalidContentSha256ValueIsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("sha"));
        byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
        String head = signedHead(gateway.endpoint(), "PUT", "/sha/k", Map.of(), "not-a-hash", "s3", Map.of(),
                (long) body.length);
        String answer = send(head, body);
        assertThat(objectOrNull("sha", "k")).isNull();
        assertThat(answer).startsWith("HTTP/1.1 400");
    }

    // ---------------------------------------------------------------- probes expected to hold

    private static String chunkSig(byte[] key, String amzDate, String scope, String previous, byte[] data) {
        String toSign = "AWS4-HMAC-SHA256-PAYLOAD\n" + amzDate + "\n" + scope + "\n" + previous + "\n"
                + SigV4.EMPTY_SHA256 + "\n" + SigV4.sha256Hex(data);
        return SigV4.hex(SigV4.hmac(key, toSign));
    }

    @Test
    void awsChunkedFailuresStoreNothing() throws Exception {
        s3.createBucket(b -> b.bucket("chunks"));
        URI e = gateway.endpoint();
        // unsigned trailer mode, wrong crc32 in the trailer
        String body = "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n";
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("content-encoding", "aws-chunked");
        extra.put("x-amz-decoded-content-length", "5");
        extra.put("x-amz-trailer", "x-amz-checksum-crc32");
        String a = send(signedHead(e, "PUT", "/chunks/t", extra, "STREAMING-UNSIGNED-PAYLOAD-TRAILER", "s3", Map.of(),
                (long) body.length()), body.getBytes(StandardCharsets.US_ASCII));
        assertThat(a).startsWith("HTTP/1.1 400").contains("BadDigest");
        assertThat(objectOrNull("chunks", "t")).isNull();
        // unsigned trailer mode, body cut inside a chunk
        String cut = "a\r\nhello";
        Map<String, String> extra2 = new LinkedHashMap<>(extra);
        extra2.put("x-amz-decoded-content-length", "10");
        String c = send(signedHead(e, "PUT", "/chunks/c", extra2, "STREAMING-UNSIGNED-PAYLOAD-TRAILER", "s3", Map.of(),
                (long) cut.length()), cut.getBytes(StandardCharsets.US_ASCII));
        assertThat(c).startsWith("HTTP/1.1 400");
        assertThat(objectOrNull("chunks", "c")).isNull();
        // decoded length smaller than the chunks
        Map<String, String> extra3 = new LinkedHashMap<>(extra);
        extra3.put("x-amz-decoded-content-length", "3");
        extra3.remove("x-amz-trailer");
        String small = "5\r\nhello\r\n0\r\n\r\n";
        String d = send(signedHead(e, "PUT", "/chunks/d", extra3, "STREAMING-UNSIGNED-PAYLOAD-TRAILER", "s3", Map.of(),
                (long) small.length()), small.getBytes(StandardCharsets.US_ASCII));
        assertThat(d).startsWith("HTTP/1.1 400");
        assertThat(objectOrNull("chunks", "d")).isNull();
    }

    @Test
    void headErrorsHaveNoBody() throws Exception {
        s3.createBucket(b -> b.bucket("heads"));
        String answer = send(signedHead(gateway.endpoint(), "HEAD", "/heads/missing", Map.of(), "UNSIGNED-PAYLOAD",
                "s3", Map.of(), null), new byte[0]);
        assertThat(answer).startsWith("HTTP/1.1 404").endsWith("\r\n\r\n");
    }

    @Test
    void presignedUrlsForAwkwardKeys() throws Exception {
        s3.createBucket(b -> b.bucket("keys"));
        try (S3Presigner presigner = presigner()) {
            for (String key : List.of("a b+c", "50%off", "tilde~x", "dir//x", "ünïcødé/ключ", "/lead", "sp ace/ ")) {
                s3.putObject(b -> b.bucket("keys").key(key), RequestBody.fromString("v:" + key));
                URL url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                        .getObjectRequest(g -> g.bucket("keys").key(key))).url();
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(url.toURI()).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(key + " " + r.body()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("v:" + key);
            }
        }
    }

    @Test
    void signedStreamingChunksAreCheckedAndAGoodChainStores() throws Exception {
        s3.createBucket(b -> b.bucket("probe"));
        URI e = gateway.endpoint();
        // curl -T - : Transfer-Encoding: chunked, no Content-Length
        String te = signedHead(e, "PUT", "/probe/te", Map.of(), "UNSIGNED-PAYLOAD", "s3",
                Map.of("transfer-encoding", "chunked"), null);
        assertThat(send(te, "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))
                .startsWith("HTTP/1.1 200");
        assertThat(objectOrNull("probe", "te")).isEqualTo("hello world");
        // zero-length PUT with a wrong Content-MD5
        String md5 = signedHead(e, "PUT", "/probe/empty", Map.of(), "UNSIGNED-PAYLOAD", "s3",
                Map.of("content-md5", "AAAAAAAAAAAAAAAAAAAAAA=="), 0L);
        assertThat(send(md5, new byte[0])).startsWith("HTTP/1.1 400").contains("BadDigest");
        assertThat(objectOrNull("probe", "empty")).isNull();
        // signed aws-chunked with a bad chunk signature, and with a good one
        for (boolean good : new boolean[] {false, true}) {
            String key = good ? "signed-good" : "signed-bad";
            byte[] data = "hello".getBytes(StandardCharsets.US_ASCII);
            Map<String, String> extra = new LinkedHashMap<>();
            extra.put("content-encoding", "aws-chunked");
            extra.put("x-amz-decoded-content-length", "5");
            String head0 = signedHead(e, "PUT", "/probe/" + key, extra, "STREAMING-AWS4-HMAC-SHA256-PAYLOAD", "s3",
                    Map.of(), 0L);
            String seed = head0.substring(head0.indexOf("Signature=") + 10, head0.indexOf("Signature=") + 74);
            String amzDate = head0.substring(head0.indexOf("x-amz-date: ") + 12, head0.indexOf("x-amz-date: ") + 28);
            String scope = amzDate.substring(0, 8) + "/us-east-1/s3/aws4_request";
            byte[] key0 = SigV4.signingKey(SECRET_KEY, amzDate.substring(0, 8), "us-east-1", "s3");
            String s1 = chunkSig(key0, amzDate, scope, seed, good ? data : "HELLO".getBytes(StandardCharsets.US_ASCII));
            String s2 = chunkSig(key0, amzDate, scope, s1, new byte[0]);
            String body = "5;chunk-signature=" + s1 + "\r\nhello\r\n0;chunk-signature=" + s2 + "\r\n\r\n";
            String head = head0.replace("content-length: 0\r\n", "content-length: " + body.length() + "\r\n");
            String answer = send(head, body.getBytes(StandardCharsets.US_ASCII));
            if (good) {
                assertThat(answer).startsWith("HTTP/1.1 200");
                assertThat(objectOrNull("probe", key)).isEqualTo("hello");
            } else {
                assertThat(answer).startsWith("HTTP/1.1 403").contains("SignatureDoesNotMatch");
                assertThat(objectOrNull("probe", key)).isNull();
            }
        }
    }

    @Test
    void signedTrailerIsCheckedAgainstTheChunkChain() throws Exception {
        s3.createBucket(b -> b.bucket("trailers"));
        URI e = gateway.endpoint();
        byte[] data = "hello".getBytes(StandardCharsets.US_ASCII);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(data);
        String checksum = java.util.Base64.getEncoder().encodeToString(
                java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        for (String variant : List.of("good", "bad-signature", "no-signature", "signature-of-another-trailer")) {
            Map<String, String> extra = new LinkedHashMap<>();
            extra.put("content-encoding", "aws-chunked");
            extra.put("x-amz-decoded-content-length", "5");
            extra.put("x-amz-trailer", "x-amz-checksum-crc32");
            String head0 = signedHead(e, "PUT", "/trailers/" + variant, extra,
                    "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER", "s3", Map.of(), 0L);
            String seed = head0.substring(head0.indexOf("Signature=") + 10, head0.indexOf("Signature=") + 74);
            String amzDate = head0.substring(head0.indexOf("x-amz-date: ") + 12, head0.indexOf("x-amz-date: ") + 28);
            String scope = amzDate.substring(0, 8) + "/us-east-1/s3/aws4_request";
            byte[] key0 = SigV4.signingKey(SECRET_KEY, amzDate.substring(0, 8), "us-east-1", "s3");
            String s1 = chunkSig(key0, amzDate, scope, seed, data);
            String s2 = chunkSig(key0, amzDate, scope, s1, new byte[0]);
            String signedTrailer = variant.equals("signature-of-another-trailer")
                    ? "x-amz-checksum-crc32:AAAAAA==\n" : "x-amz-checksum-crc32:" + checksum + "\n";
            String trailerSig = SigV4.hex(SigV4.hmac(key0, "AWS4-HMAC-SHA256-TRAILER\n" + amzDate + "\n" + scope
                    + "\n" + s2 + "\n" + SigV4.sha256Hex(signedTrailer.getBytes(StandardCharsets.US_ASCII))));
            if (variant.equals("bad-signature")) {
                trailerSig = trailerSig.substring(0, 63) + (trailerSig.endsWith("0") ? "1" : "0");
            }
            String body = "5;chunk-signature=" + s1 + "\r\nhello\r\n0;chunk-signature=" + s2 + "\r\n"
                    + "x-amz-checksum-crc32:" + checksum + "\r\n"
                    + (variant.equals("no-signature") ? "" : "x-amz-trailer-signature:" + trailerSig + "\r\n")
                    + "\r\n";
            String head = head0.replace("content-length: 0\r\n", "content-length: " + body.length() + "\r\n");
            String answer = send(head, body.getBytes(StandardCharsets.US_ASCII));
            if (variant.equals("good")) {
                assertThat(answer).as(variant).startsWith("HTTP/1.1 200");
                assertThat(objectOrNull("trailers", variant)).isEqualTo("hello");
            } else {
                assertThat(answer).as(variant).startsWith("HTTP/1.1 403").contains("SignatureDoesNotMatch");
                assertThat(objectOrNull("trailers", variant)).as(variant).isNull();
            }
        }
    }
}
