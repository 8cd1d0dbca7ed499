/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.HeldUpdates;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A PutObject without conditions, of a value streamed in chunks, whose metadata update a deletion of the key
 * overtakes (docs/protocol.md, PUT step 4): the stream cannot be read again, so nothing is stored and the gateway
 * answers {@code 409 OperationAborted} — not {@code 412}, as no precondition was sent.
 */
class OvertakenPutTest {
    private static final Duration AWAIT = Duration.ofSeconds(30);

    @Test
    void aLargePutOvertakenByADeletionAnswersOperationAbortedAndStoresNothing() throws Exception {
        InMemoryMetadataStore metadata = new InMemoryMetadataStore();
        List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        AtomicBoolean armed = new AtomicBoolean();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        MetadataStore holding = HeldUpdates.first(metadata, u -> armed.get() && u.key().key().equals("big"), held,
                go, AWAIT);
        HybrisConfig.Builder served = HybrisConfig.builder().f(1).clientId("a-gateway").metadataStore(holding)
                .chunkThreshold(1 << 20).chunkSize(1 << 20);
        HybrisConfig.Builder direct = HybrisConfig.builder().f(1).clientId("z-other").metadataStore(metadata);
        clouds.forEach(c -> {
            served.cloud(c);
            direct.cloud(c);
        });
        try (Hybris hybris = Hybris.open(served.build()); Hybris other = Hybris.open(direct.build());
             S3Gateway gateway = S3Gateway.builder(hybris).port(0)
                     .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start()) {
            GatewayFixture f = new GatewayFixture() { };
            f.gateway = gateway;
            try (S3Client s3 = f.client(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY)) {
                s3.createBucket(b -> b.bucket("bkt"));
                s3.putObject(p -> p.bucket("bkt").key("big"), RequestBody.fromString("small"));
            }
            armed.set(true);
            CompletableFuture<String> put = CompletableFuture.supplyAsync(() -> {
                try { // a raw request: an SDK would retry the 409
                    return RawRequests.exchange(gateway.endpoint(), "PUT", "/bkt/big", Map.of(), new byte[3 << 20]);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThat(held.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the PUT's update, held").isTrue();
            assertThat(other.delete("bkt", "big")).as("the deletion, ordered after the PUT's timestamp").isPresent();
            go.countDown();

            String response = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(response).startsWith("HTTP/1.1 409").contains("<Code>OperationAborted</Code>");
            assertThat(other.get("bkt", "big")).as("nothing stored over the deletion").isEmpty();
        }
    }
}
