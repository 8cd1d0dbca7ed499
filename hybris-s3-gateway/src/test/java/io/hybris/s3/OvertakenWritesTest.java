/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.HeldUpdates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * A PutObject or CopyObject without conditions of a value above the chunk threshold streams into the destination:
 * a conditional write or a deletion of the destination that overtakes it before its commit fails it (the stream
 * cannot be read again, docs/protocol.md PUT step 4). The client sent no condition, so the answer is
 * {@code OperationAborted} (409, try again), not {@code PreconditionFailed} (412, what it was before) naming a
 * header it never sent; nothing of the write is left, and the write tried again succeeds.
 */
class OvertakenWritesTest {
    private static final Duration AWAIT = Duration.ofSeconds(20);
    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"),
            new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch go = new CountDownLatch(1);
    private volatile boolean armed;
    private Hybris behindGateway;
    private Hybris direct;
    private S3Gateway gateway;
    private S3Client s3;

    @BeforeEach
    void start() {
        MetadataStore holding = HeldUpdates.first(store, u -> armed && u.key().equals(new MetadataKey("box", "dst")),
                held, go, AWAIT);
        behindGateway = Hybris.open(config("a-gateway", holding).build());
        direct = Hybris.open(config("z-direct", store).build());
        gateway = S3Gateway.builder(behindGateway).port(0)
                .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start();
        s3 = GatewayFixture.clientOf(gateway, false);
    }

    private HybrisConfig.Builder config(String clientId, MetadataStore metadata) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId(clientId).metadataStore(metadata)
                .chunkThreshold(1 << 20).chunkSize(1 << 20).deadline(Duration.ofSeconds(20))
                .probeInterval(Duration.ZERO).probeOnOpen(false);
        clouds.forEach(b::cloud);
        return b;
    }

    @AfterEach
    void stop() {
        if (s3 != null) {
            s3.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (behindGateway != null) {
            behindGateway.close();
        }
        if (direct != null) {
            direct.close();
        }
    }

    @Test
    void aLargeCopyWithoutConditionsOvertakenByADeletionAnswersOperationAborted() throws Exception {
        s3.createBucket(b -> b.bucket("box"));
        byte[] big = new byte[(3 << 20) + 5];
        new Random(3).nextBytes(big);
        s3.putObject(b -> b.bucket("box").key("src"), RequestBody.fromBytes(big));
        s3.putObject(b -> b.bucket("box").key("dst"), RequestBody.fromString("base"));
        overtakenByADeletionOfDst("copy", () -> s3.copyObject(
                b -> b.sourceBucket("box").sourceKey("src").destinationBucket("box").destinationKey("dst")));

        s3.copyObject(b -> b.sourceBucket("box").sourceKey("src").destinationBucket("box").destinationKey("dst"));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("box").key("dst")).asByteArray()).isEqualTo(big);
    }

    @Test
    void aLargePutWithoutConditionsOvertakenByADeletionAnswersOperationAborted() throws Exception {
        s3.createBucket(b -> b.bucket("box"));
        s3.putObject(b -> b.bucket("box").key("dst"), RequestBody.fromString("base"));
        byte[] big = new byte[(3 << 20) + 5];
        new Random(4).nextBytes(big);
        overtakenByADeletionOfDst("put", () -> s3.putObject(b -> b.bucket("box").key("dst"),
                RequestBody.fromBytes(big)));

        s3.putObject(b -> b.bucket("box").key("dst"), RequestBody.fromBytes(big));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("box").key("dst")).asByteArray()).isEqualTo(big);
    }

    /**
     * Runs {@code write} of box/dst with its commit held while a deletion of dst that orders after it commits, and
     * checks what the client saw and what is left: 409 OperationAborted, the deletion standing, no object of dst.
     */
    private void overtakenByADeletionOfDst(String what, Runnable write) throws Exception {
        armed = true;
        CompletableFuture<Throwable> written = CompletableFuture.supplyAsync(() -> catchThrowable(write::run));
        assertThat(held.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the %s's commit is held", what).isTrue();
        assertThat(direct.delete("box", "dst")).as("a deletion that orders after the %s's version", what).isPresent();
        go.countDown();

        assertThat(written.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOfSatisfying(S3Exception.class,
                e -> {
                    assertThat(e.statusCode()).isEqualTo(409);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("OperationAborted");
                });
        assertThat(direct.get("box", "dst")).as("the deletion stands").isEmpty();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(clouds).allSatisfy(c ->
                assertThat(c.list("hybris/box/dst#")).as("objects of dst on %s", c.id()).isEmpty()));
    }
}
