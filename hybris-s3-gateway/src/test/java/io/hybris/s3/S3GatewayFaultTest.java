/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.CorruptingCloudStore;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The gateway under faults and bad input: a cloud that corrupts what it returns, presigned URLs (valid and
 * expired), malformed XML, an oversized header section, a client that disconnects mid-upload (nothing committed,
 * orphans swept, the gateway keeps serving), and two gateways on one deployment racing a conditional PUT.
 */
class S3GatewayFaultTest {
    private final HttpClient http = HttpClient.newHttpClient();

    /** A deployment over the given clouds, with one gateway. */
    private record Deployment(Hybris hybris, S3Gateway gateway, S3Client s3) implements AutoCloseable {
        @Override
        public void close() {
            s3.close();
            gateway.close();
            hybris.close();
        }
    }

    private static Deployment deploy(InMemoryMetadataStore metadata, List<? extends CloudStore> clouds,
                                     Clock clock, Duration gcGrace) {
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(metadata)
                .chunkThreshold(1 << 20).chunkSize(1 << 20).gcGrace(gcGrace);
        clouds.forEach(config::cloud);
        Hybris hybris = Hybris.open(config.build());
        S3Gateway gateway = S3Gateway.builder(hybris).port(0).clock(clock)
                .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start();
        return new Deployment(hybris, gateway, GatewayFixture.clientOf(gateway, true));
    }

    private static List<InMemoryCloudStore> clouds() {
        return List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    }

    @Test
    void aCloudCorruptingEveryReadNeverReachesTheClient() throws Exception {
        List<InMemoryCloudStore> raw = clouds();
        CorruptingCloudStore bad = CorruptingCloudStore.of(raw.get(0));
        try (Deployment d = deploy(new InMemoryMetadataStore(), List.of(bad, raw.get(1), raw.get(2)),
                Clock.systemUTC(), Duration.ofMinutes(5))) {
            d.s3().createBucket(b -> b.bucket("rot"));
            Random random = new Random(11);
            for (int size : new int[] {0, 1, 1000, 3 << 20}) {
                byte[] value = new byte[size];
                random.nextBytes(value);
                d.s3().putObject(b -> b.bucket("rot").key("v" + size), RequestBody.fromBytes(value));
                for (int i = 0; i < 3; i++) {
                    assertThat(d.s3().getObjectAsBytes(b -> b.bucket("rot").key("v" + size)).asByteArray())
                            .isEqualTo(value);
                }
                if (size > 10) {
                    assertThat(d.s3().getObjectAsBytes(b -> b.bucket("rot").key("v" + size).range("bytes=5-9"))
                            .asByteArray()).isEqualTo(java.util.Arrays.copyOfRange(value, 5, 10));
                }
            }
        }
    }

    @Test
    void presignedGetWorksUntilItExpires() throws Exception {
        try (Deployment d = deploy(new InMemoryMetadataStore(), clouds(), Clock.systemUTC(), Duration.ofMinutes(5));
             S3Presigner presigner = presigner(d.gateway().endpoint())) {
            d.s3().createBucket(b -> b.bucket("share"));
            d.s3().putObject(b -> b.bucket("share").key("a b+c.txt"), RequestBody.fromString("shared bytes"));
            URL url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(10))
                    .getObjectRequest(g -> g.bucket("share").key("a b+c.txt"))).url();
            HttpResponse<String> ok = http.send(HttpRequest.newBuilder(url.toURI()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("shared bytes");
            URI tampered = URI.create(url.toString().replace("share/a", "share/b"));
            assertThat(http.send(HttpRequest.newBuilder(tampered).build(), HttpResponse.BodyHandlers.ofString())
                    .body()).contains("<Code>SignatureDoesNotMatch</Code>");
        }
        // the same kind of URL at a gateway whose clock is an hour later: expired
        Clock later = Clock.fixed(Instant.now().plus(Duration.ofHours(1)), ZoneOffset.UTC);
        try (Deployment d = deploy(new InMemoryMetadataStore(), clouds(), later, Duration.ofMinutes(5));
             S3Presigner presigner = presigner(d.gateway().endpoint())) {
            URL url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(10))
                    .getObjectRequest(g -> g.bucket("share").key("k"))).url();
            HttpResponse<String> expired = http.send(HttpRequest.newBuilder(url.toURI()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(expired.statusCode()).isEqualTo(403);
            assertThat(expired.body()).contains("<Code>AccessDenied</Code>").contains("Request has expired");
        }
    }

    private static S3Presigner presigner(URI endpoint) {
        return S3Presigner.builder().endpointOverride(endpoint).region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(GatewayFixture.ACCESS_KEY,
                                GatewayFixture.SECRET_KEY)))
                .serviceConfiguration(software.amazon.awssdk.services.s3.S3Configuration.builder()
                        .pathStyleAccessEnabled(true).build()).build();
    }

    @Test
    void malformedXmlAndAnOversizedHeaderSectionGetTheirErrorsAndTheGatewayKeepsServing() throws Exception {
        try (Deployment d = deploy(new InMemoryMetadataStore(), clouds(), Clock.systemUTC(), Duration.ofMinutes(5))) {
            d.s3().createBucket(b -> b.bucket("xml"));
            URI e = d.gateway().endpoint();
            String bad = RawRequests.exchange(e, "POST", "/xml?delete=", Map.of(),
                    "<Delete><Object><Key>a</Key></Object".getBytes(StandardCharsets.UTF_8));
            assertThat(bad).startsWith("HTTP/1.1 400").contains("<Code>MalformedXML</Code>");
            String entity = RawRequests.exchange(e, "POST", "/xml?delete=", Map.of(),
                    ("<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                            + "<Delete><Object><Key>&x;</Key></Object></Delete>").getBytes(StandardCharsets.UTF_8));
            assertThat(entity).startsWith("HTTP/1.1 400").contains("<Code>MalformedXML</Code>")
                    .doesNotContain("root:");
            String huge = RawRequests.exchange(e, "GET", "/xml", Map.of("x-amz-meta-big", "x".repeat(20_000)),
                    new byte[0]);
            assertThat(huge).startsWith("HTTP/1.1 400").contains("RequestHeaderSectionTooLarge");
            String unknown = RawRequests.exchange(e, "GET", "/xml?torrent=", Map.of(), new byte[0]);
            assertThat(unknown).startsWith("HTTP/1.1 501").contains("<Code>NotImplemented</Code>");
            d.s3().putObject(b -> b.bucket("xml").key("still"), RequestBody.fromString("serving"));
            assertThat(d.s3().getObjectAsBytes(b -> b.bucket("xml").key("still")).asUtf8String()).isEqualTo("serving");
        }
    }

    @Test
    void aClientThatDisconnectsMidUploadCommitsNothingAndItsOrphansAreSwept() throws Exception {
        List<InMemoryCloudStore> raw = clouds();
        try (Deployment d = deploy(new InMemoryMetadataStore(), raw, Clock.systemUTC(), Duration.ofMillis(1))) {
            d.s3().createBucket(b -> b.bucket("cut"));
            URI e = d.gateway().endpoint();
            try (Socket s = new Socket(e.getHost(), e.getPort())) {
                OutputStream out = s.getOutputStream();
                out.write(RawRequests.head(e, "PUT", "/cut/upload.bin", Map.of(), 5L << 20)
                        .getBytes(StandardCharsets.UTF_8));
                byte[] some = new byte[(3 << 20) / 2]; // 1.5 MiB of 5: one chunk stored, then the client leaves
                new Random(5).nextBytes(some);
                out.write(some);
                out.flush();
            }
            // the upload failed: nothing committed, and its chunk is an orphan for the sweep
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(d.hybris().describe("cut", "upload.bin")).isEmpty();
                d.hybris().sweepOrphans();
                assertThat(raw).allSatisfy(c -> assertThat(c.list("")).noneMatch(o -> o.key().contains("upload.bin")));
            });
            d.s3().putObject(b -> b.bucket("cut").key("upload.bin"), RequestBody.fromString("complete"));
            assertThat(d.s3().getObjectAsBytes(b -> b.bucket("cut").key("upload.bin")).asUtf8String())
                    .isEqualTo("complete");
        }
    }

    @Test
    void twoGatewaysOnOneDeploymentShareBucketsAndSerializeConditionalPuts() throws Exception {
        InMemoryMetadataStore metadata = new InMemoryMetadataStore();
        List<InMemoryCloudStore> raw = clouds();
        try (Deployment one = deploy(metadata, raw, Clock.systemUTC(), Duration.ofMinutes(5));
             Deployment two = deploy(metadata, raw, Clock.systemUTC(), Duration.ofMinutes(5))) {
            one.s3().createBucket(b -> b.bucket("shared"));
            two.s3().putObject(b -> b.bucket("shared").key("from-two"), RequestBody.fromString("2"));
            assertThat(one.s3().getObjectAsBytes(b -> b.bucket("shared").key("from-two")).asUtf8String())
                    .isEqualTo("2");
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                for (int round = 0; round < 5; round++) {
                    String key = "race-" + round;
                    List<Future<Integer>> racers = new ArrayList<>();
                    for (int i = 0; i < 8; i++) {
                        S3Client c = i % 2 == 0 ? one.s3() : two.s3();
                        String body = "writer " + i;
                        racers.add(pool.submit((Callable<Integer>) () -> {
                            try {
                                c.putObject(b -> b.bucket("shared").key(key).ifNoneMatch("*"),
                                        RequestBody.fromString(body));
                                return 200;
                            } catch (S3Exception e) {
                                return e.statusCode();
                            }
                        }));
                    }
                    List<Integer> codes = new ArrayList<>();
                    for (Future<Integer> f : racers) {
                        codes.add(f.get());
                    }
                    assertThat(codes).as("round %d", round).containsOnly(200, 412);
                    assertThat(codes.stream().filter(c -> c == 200)).as("exactly one creator").hasSize(1);
                    assertThat(one.s3().getObjectAsBytes(b -> b.bucket("shared").key(key)).asUtf8String())
                            .isEqualTo(two.s3().getObjectAsBytes(b -> b.bucket("shared").key(key)).asUtf8String());
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aMultipartUploadSpansTwoGatewaysAndACompleteRacingAnAbortNeverLosesTheObject() throws Exception {
        InMemoryMetadataStore metadata = new InMemoryMetadataStore();
        List<InMemoryCloudStore> raw = clouds();
        try (Deployment one = deploy(metadata, raw, Clock.systemUTC(), Duration.ofMinutes(5));
             Deployment two = deploy(metadata, raw, Clock.systemUTC(), Duration.ofMinutes(5))) {
            one.s3().createBucket(b -> b.bucket("mpu"));
            byte[] p1 = new byte[5 << 20];
            byte[] p2 = new byte[1000];
            new Random(1).nextBytes(p1);
            new Random(2).nextBytes(p2);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                for (int round = 0; round < 6; round++) {
                    String key = "k" + round;
                    String id = one.s3().createMultipartUpload(b -> b.bucket("mpu").key(key)).uploadId();
                    String e1 = one.s3().uploadPart(b -> b.bucket("mpu").key(key).uploadId(id).partNumber(1),
                            RequestBody.fromBytes(p1)).eTag();
                    String e2 = two.s3().uploadPart(b -> b.bucket("mpu").key(key).uploadId(id).partNumber(2),
                            RequestBody.fromBytes(p2)).eTag();
                    Future<String> complete = pool.submit(() -> {
                        try {
                            two.s3().completeMultipartUpload(b -> b.bucket("mpu").key(key).uploadId(id)
                                    .multipartUpload(m -> m.parts(
                                            software.amazon.awssdk.services.s3.model.CompletedPart.builder()
                                                    .partNumber(1).eTag(e1).build(),
                                            software.amazon.awssdk.services.s3.model.CompletedPart.builder()
                                                    .partNumber(2).eTag(e2).build())));
                            return "completed";
                        } catch (S3Exception e) {
                            return e.awsErrorDetails().errorCode();
                        }
                    });
                    Future<String> abort = pool.submit(() -> {
                        try {
                            one.s3().abortMultipartUpload(b -> b.bucket("mpu").key(key).uploadId(id));
                            return "aborted";
                        } catch (S3Exception e) {
                            return e.awsErrorDetails().errorCode();
                        }
                    });
                    List<String> outcome = List.of(complete.get(), abort.get());
                    assertThat(outcome).as("round %d", round).isIn(List.of("completed", "NoSuchUpload"),
                            List.of("NoSuchUpload", "aborted"));
                    if (outcome.get(0).equals("completed")) {
                        byte[] got = one.s3().getObjectAsBytes(b -> b.bucket("mpu").key(key)).asByteArray();
                        assertThat(got).as("round %d: the completed object, whole", round).hasSize(p1.length
                                + p2.length);
                        assertThat(java.util.Arrays.copyOfRange(got, p1.length, got.length)).isEqualTo(p2);
                        assertThat(java.util.Arrays.copyOf(got, p1.length)).isEqualTo(p1);
                    } else {
                        assertThatThrownBy(() -> one.s3().getObjectAsBytes(b -> b.bucket("mpu").key(key)))
                                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode())
                                        .isEqualTo(404));
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
