/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The time windows and chunk signatures of SigV4 (docs/s3-gateway.md): a header-signed request dated more than 15
 * minutes from the gateway's time is refused in either direction (RequestTimeTooSkewed); a presigned URL is refused
 * once its X-Amz-Expires has passed, not some time later; and the final, empty chunk of a signed aws-chunked body is
 * signature-checked like the others. The gateway's clock is a fixed offset from the real one, which the test's
 * signatures (and the SDK's) use.
 */
class SignatureWindowsTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** A gateway over an in-memory deployment whose clock is the real one moved by {@code offset}. */
    private S3Gateway gatewayAt(Duration offset) {
        Hybris hybris = Hybris.open(GatewayFixture.config(new InMemoryMetadataStore(),
                List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2")),
                Duration.ofSeconds(30)).build());
        open.add(hybris);
        Clock clock = Clock.offset(Clock.systemUTC(), offset);
        S3Gateway gateway = S3Gateway.builder(hybris).port(0).clock(clock)
                .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start();
        open.add(gateway);
        return gateway;
    }

    /**
     * The answer to a header-signed PUT, signed now (real time), at a gateway {@code offset} away; authentication
     * comes first, so a request that passes it finds no bucket (404).
     */
    private String signedPutTo(Duration offset) throws IOException {
        S3Gateway gateway = gatewayAt(offset);
        byte[] body = "dated".getBytes(StandardCharsets.US_ASCII);
        String head = S3AuthAndPayloadTest.signedHead(gateway.endpoint(), "PUT", "/dated/k", Map.of(),
                SigV4.sha256Hex(body), "s3", Map.of(), (long) body.length);
        return send(gateway.endpoint(), head, body);
    }

    @Test
    void aHeaderSignedRequestDatedMoreThanFifteenMinutesInTheFutureIsRefused() throws Exception {
        // the request is dated 20 minutes after the gateway's time
        String answer = signedPutTo(Duration.ofMinutes(-20));
        assertThat(answer).startsWith("HTTP/1.1 403").contains("RequestTimeTooSkewed");
    }

    @Test
    void aHeaderSignedRequestDatedMoreThanFifteenMinutesInThePastIsRefused() throws Exception {
        String answer = signedPutTo(Duration.ofMinutes(20));
        assertThat(answer).startsWith("HTTP/1.1 403").contains("RequestTimeTooSkewed");
    }

    @Test
    void aHeaderSignedRequestWithinTheWindowIsAuthenticated() throws Exception {
        // 5 minutes either way is within the window: the signature is checked (the bucket does not exist: 404)
        for (Duration offset : List.of(Duration.ofMinutes(5), Duration.ofMinutes(-5))) {
            String answer = signedPutTo(offset);
            assertThat(answer).as(offset.toString()).doesNotContain("RequestTimeTooSkewed")
                    .doesNotContain("SignatureDoesNotMatch").doesNotContain("AccessDenied");
        }
    }

    @Test
    void aPresignedUrlIsRefusedOnceItsExpiryHasPassed() throws Exception {
        // valid for 10 minutes from now (real time); the gateway is 15 minutes later: expired 5 minutes ago
        S3Gateway gateway = gatewayAt(Duration.ofMinutes(15));
        URL url;
        try (S3Presigner presigner = presigner(gateway.endpoint())) {
            url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(10))
                    .getObjectRequest(g -> g.bucket("share").key("k"))).url();
        }
        HttpResponse<String> expired = http.send(HttpRequest.newBuilder(url.toURI()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(expired.statusCode()).isEqualTo(403);
        assertThat(expired.body()).contains("<Code>AccessDenied</Code>").contains("Request has expired");

        // the same URL at a gateway 5 minutes later: still valid (the bucket does not exist: 404, not 403)
        S3Gateway sooner = gatewayAt(Duration.ofMinutes(5));
        URL valid;
        try (S3Presigner presigner = presigner(sooner.endpoint())) {
            valid = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(10))
                    .getObjectRequest(g -> g.bucket("share").key("k"))).url();
        }
        HttpResponse<String> ok = http.send(HttpRequest.newBuilder(valid.toURI()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(ok.body()).doesNotContain("Request has expired");
        assertThat(ok.statusCode()).isEqualTo(404);
    }

    @Test
    void theFinalEmptyChunkOfASignedAwsChunkedBodyIsSignatureChecked() throws Exception {
        S3Gateway gateway = gatewayAt(Duration.ZERO);
        S3Client s3 = GatewayFixture.clientOf(gateway, false);
        open.add(s3);
        s3.createBucket(b -> b.bucket("probe"));
        URI e = gateway.endpoint();
        for (boolean good : new boolean[] {false, true}) {
            String key = good ? "final-good" : "final-bad";
            byte[] data = "hello".getBytes(StandardCharsets.US_ASCII);
            Map<String, String> extra = new LinkedHashMap<>();
            extra.put("content-encoding", "aws-chunked");
            extra.put("x-amz-decoded-content-length", "5");
            String head0 = S3AuthAndPayloadTest.signedHead(e, "PUT", "/probe/" + key, extra,
                    "STREAMING-AWS4-HMAC-SHA256-PAYLOAD", "s3", Map.of(), 0L);
            String seed = head0.substring(head0.indexOf("Signature=") + 10, head0.indexOf("Signature=") + 74);
            String amzDate = head0.substring(head0.indexOf("x-amz-date: ") + 12, head0.indexOf("x-amz-date: ") + 28);
            String scope = amzDate.substring(0, 8) + "/us-east-1/s3/aws4_request";
            byte[] key0 = SigV4.signingKey(GatewayFixture.SECRET_KEY, amzDate.substring(0, 8), "us-east-1", "s3");
            String s1 = chunkSig(key0, amzDate, scope, seed, data);
            String s2 = chunkSig(key0, amzDate, scope, s1, new byte[0]);
            if (!good) {
                s2 = s2.substring(0, 63) + (s2.endsWith("0") ? "1" : "0"); // only the final chunk's is wrong
            }
            String body = "5;chunk-signature=" + s1 + "\r\nhello\r\n0;chunk-signature=" + s2 + "\r\n\r\n";
            String head = head0.replace("content-length: 0\r\n", "content-length: " + body.length() + "\r\n");
            String answer = send(e, head, body.getBytes(StandardCharsets.US_ASCII));
            if (good) {
                assertThat(answer).startsWith("HTTP/1.1 200");
                assertThat(s3.getObjectAsBytes(b -> b.bucket("probe").key(key)).asUtf8String()).isEqualTo("hello");
            } else {
                assertThat(answer).startsWith("HTTP/1.1 403").contains("SignatureDoesNotMatch");
                assertThat(s3.listObjectsV2(b -> b.bucket("probe")).contents())
                        .noneMatch(o -> o.key().equals(key));
            }
        }
    }

    private static String chunkSig(byte[] key, String amzDate, String scope, String previous, byte[] data) {
        String toSign = "AWS4-HMAC-SHA256-PAYLOAD\n" + amzDate + "\n" + scope + "\n" + previous + "\n"
                + SigV4.EMPTY_SHA256 + "\n" + SigV4.sha256Hex(data);
        return SigV4.hex(SigV4.hmac(key, toSign));
    }

    private static S3Presigner presigner(URI endpoint) {
        return S3Presigner.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY)))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
    }

    private static String send(URI e, String head, byte[] body) throws IOException {
        return RawRequests.send(e, head, body);
    }
}
