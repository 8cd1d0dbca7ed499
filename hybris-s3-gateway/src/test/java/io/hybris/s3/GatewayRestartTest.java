/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.testkit.GatedCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * A gateway closed with requests in flight and another started on the same deployment, as a restart does: close
 * ends every request in flight in bounded time, what was not acknowledged is not visible, and the clients' retries
 * on the new gateway (a PUT, a multipart upload's parts, list and complete) converge on the right object.
 */
class GatewayRestartTest {
    /** Holds the puts of the first object of "k" (its value or first chunk). */
    private final FirstKeyHold gates = new FirstKeyHold(key -> key.contains("/k#"));
    private Hybris hybris;
    private S3Gateway gateway;
    private S3Client s3;

    @BeforeEach
    void start() {
        hybris = Hybris.open(GatewayFixture.config(new InMemoryMetadataStore(), gates.clouds, Duration.ofSeconds(30))
                .build());
        startGateway();
        s3.createBucket(b -> b.bucket("bkt"));
    }

    private void startGateway() {
        gateway = GatewayFixture.startOver(hybris);
        s3 = GatewayFixture.clientOf(gateway, true);
    }

    /** Closes the gateway (timed) and starts another on the same deployment. */
    private Duration restart() {
        long t0 = System.nanoTime();
        gateway.close();
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        s3.close();
        startGateway();
        return took;
    }

    @AfterEach
    void stop() {
        gates.hold(false);
        s3.close();
        gateway.close();
        hybris.close();
    }

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aPutInFlightAtCloseEndsStoresNothingAndItsRetryOnTheNextGatewayIsStored() throws Exception {
        byte[] old = bytes(1000, 1);
        s3.putObject(b -> b.bucket("bkt").key("k"), RequestBody.fromBytes(old));
        byte[] value = bytes(3 << 20, 2);
        gates.hold(true);
        S3Client first = s3;
        CompletableFuture<Throwable> put = CompletableFuture.supplyAsync(() -> catchThrowable(() ->
                first.putObject(b -> b.bucket("bkt").key("k"), RequestBody.fromBytes(value))));
        gates.awaitHeld();
        Duration took = restart();
        assertThat(took).as("close() is bounded").isLessThan(Duration.ofSeconds(10));
        assertThat(put.get(30, TimeUnit.SECONDS)).as("the PUT in flight ends, unacknowledged").isNotNull();
        gates.hold(false);
        assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asByteArray())
                .as("nothing of the cut-off PUT is visible").isEqualTo(old);
        s3.putObject(b -> b.bucket("bkt").key("k"), RequestBody.fromBytes(value));
        assertThat(Arrays.equals(s3.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asByteArray(), value)).isTrue();
    }

    @Test
    void aMultipartUploadListedAndCompletedOnTheNextGatewayAfterACompleteCutOffByClose() throws Exception {
        String id = s3.createMultipartUpload(b -> b.bucket("bkt").key("k").contentType("text/x-test")).uploadId();
        byte[] p1 = bytes(5 << 20, 3);
        byte[] p2 = bytes(1000, 4);
        String e1 = s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(1),
                RequestBody.fromBytes(p1)).eTag();
        restart();
        ListPartsResponse listed = s3.listParts(b -> b.bucket("bkt").key("k").uploadId(id));
        assertThat(listed.parts()).singleElement().satisfies(p -> {
            assertThat(p.eTag()).isEqualTo(e1);
            assertThat(p.size()).isEqualTo((long) p1.length);
        });
        String e2 = s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(2),
                RequestBody.fromBytes(p2)).eTag();
        List<CompletedPart> parts = List.of(CompletedPart.builder().partNumber(1).eTag(e1).build(),
                CompletedPart.builder().partNumber(2).eTag(e2).build());

        gates.hold(true); // the commit's write to the clouds
        S3Client first = s3;
        CompletableFuture<Throwable> complete = CompletableFuture.supplyAsync(() -> catchThrowable(() ->
                first.completeMultipartUpload(b -> b.bucket("bkt").key("k").uploadId(id)
                        .multipartUpload(m -> m.parts(parts)))));
        gates.awaitHeld();
        assertThat(restart()).as("close() is bounded").isLessThan(Duration.ofSeconds(10));
        assertThat(complete.get(30, TimeUnit.SECONDS)).as("the complete in flight ends, unacknowledged")
                .isNotNull();
        gates.hold(false);

        String etag = s3.completeMultipartUpload(b -> b.bucket("bkt").key("k").uploadId(id)
                .multipartUpload(m -> m.parts(parts))).eTag();
        assertThat(etag).endsWith("-2\"");
        byte[] got = s3.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asByteArray();
        byte[] want = new byte[p1.length + p2.length];
        System.arraycopy(p1, 0, want, 0, p1.length);
        System.arraycopy(p2, 0, want, p1.length, p2.length);
        assertThat(Arrays.equals(got, want)).isTrue();
        assertThat(s3.headObject(b -> b.bucket("bkt").key("k")).contentType()).isEqualTo("text/x-test");
        assertThat(hybris.list(Buckets.UPLOADS)).as("no record or receipt is left").isEmpty();
    }

    @Test
    void aMultipartUploadCompletesWhileOneCloudHangsOnEveryWriteAndCloseStaysBounded() throws Exception {
        GatedCloudStore hung = GatedCloudStore.of(new InMemoryCloudStore("h0"), key -> true);
        try (Hybris other = Hybris.open(GatewayFixture.config(new InMemoryMetadataStore(), List.of(hung,
                new InMemoryCloudStore("h1"), new InMemoryCloudStore("h2")), Duration.ofSeconds(30)).build())) {
            S3Gateway g = GatewayFixture.startOver(other);
            try (S3Client c = GatewayFixture.clientOf(g, true)) {
                c.createBucket(b -> b.bucket("hung"));
                String id = c.createMultipartUpload(b -> b.bucket("hung").key("k")).uploadId();
                byte[] p1 = bytes(5 << 20, 5);
                byte[] p2 = bytes(1000, 6);
                String e1 = c.uploadPart(b -> b.bucket("hung").key("k").uploadId(id).partNumber(1),
                        RequestBody.fromBytes(p1)).eTag();
                String e2 = c.uploadPart(b -> b.bucket("hung").key("k").uploadId(id).partNumber(2),
                        RequestBody.fromBytes(p2)).eTag();
                c.completeMultipartUpload(b -> b.bucket("hung").key("k").uploadId(id).multipartUpload(m -> m.parts(
                        CompletedPart.builder().partNumber(1).eTag(e1).build(),
                        CompletedPart.builder().partNumber(2).eTag(e2).build())));
                byte[] got = c.getObjectAsBytes(b -> b.bucket("hung").key("k")).asByteArray();
                assertThat(got.length).isEqualTo(p1.length + p2.length);
                assertThat(Arrays.equals(Arrays.copyOfRange(got, 0, p1.length), p1)).isTrue();
                assertThat(Arrays.equals(Arrays.copyOfRange(got, p1.length, got.length), p2)).isTrue();
                assertThat(hung.blockedCount()).as("the hung cloud holds writes").isPositive();
            } finally {
                long t0 = System.nanoTime();
                g.close();
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
                hung.open();
            }
        }
    }

    @Test
    void anIdleGatewayClosesAtOnceAndARequestInFlightStillGetsItsGrace() throws Exception {
        s3.close();
        gateway.close();
        startGateway(); // serves nothing before it is closed
        long t0 = System.nanoTime();
        gateway.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("closing an idle gateway does not wait")
                .isLessThan(Duration.ofMillis(1500));
        s3.close();
        startGateway();

        byte[] value = bytes(3 << 20, 8);
        gates.hold(true);
        S3Client first = s3;
        CompletableFuture<Throwable> put = CompletableFuture.supplyAsync(() -> catchThrowable(() ->
                first.putObject(b -> b.bucket("bkt").key("k"), RequestBody.fromBytes(value))));
        gates.awaitHeld();
        int port = gateway.port();
        CompletableFuture<Void> close = CompletableFuture.runAsync(gateway::close);
        // a new request is refused while the one in flight drains
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> status(port) == 503);
        assertThat(close).as("close waits for the request in flight").isNotDone();
        gates.hold(false); // released within the 2 s a request in flight gets
        assertThat(put.get(30, TimeUnit.SECONDS)).as("the PUT in flight at close completes").isNull();
        close.get(30, TimeUnit.SECONDS);
        assertThat(Arrays.equals(hybris.get("bkt", "k").orElseThrow(), value)).isTrue();
    }

    /** The status a new, unsigned request gets from the gateway on {@code port}. */
    private static int status(int port) throws Exception {
        return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + port + "/bkt")).timeout(Duration.ofSeconds(5)).build(),
                java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
