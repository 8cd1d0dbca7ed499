/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.GatedCloudStore;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Clients that stall the gateway are cut off (the JDK server alone would wait for them forever, so a few such
 * clients held every request thread): a request head that never ends, a body that stops, an answer nobody reads. The
 * gateway here has one request thread, so a stalled client not cut off would stop it. Time Hybris spends on a request
 * is not the client's: no timer runs while a PUT waits for its clouds.
 */
class ClientTimeoutsTest extends GatewayFixture {
    private static final Duration LIMIT = Duration.ofSeconds(1);

    /** Replaces the fixture's gateway by one with one request thread and 1 s client timeouts. */
    private void oneThreadGateway() {
        gateway.close();
        gateway = S3Gateway.builder(hybris).port(0).credentials(ACCESS_KEY, SECRET_KEY).threads(1)
                .clientTimeouts(LIMIT, LIMIT).start();
        s3.close();
        s3 = client(ACCESS_KEY, SECRET_KEY);
    }

    private static Socket connect(URI endpoint) throws IOException {
        Socket socket = new Socket(endpoint.getHost(), endpoint.getPort());
        socket.setSoTimeout(30_000);
        return socket;
    }

    /** Reads until the server closes the connection (or resets it); how many bytes came. */
    private static long readToClose(InputStream in) throws IOException {
        long n = 0;
        byte[] buffer = new byte[64 * 1024];
        try {
            for (int r; (r = in.read(buffer)) >= 0; ) {
                n += r;
            }
        } catch (SocketException reset) {
            // closed with unread data: a reset
        }
        return n;
    }

    private long cutOff() {
        return gateway.clientTimeouts().cutOff();
    }

    @Test
    void aRequestHeadThatNeverEndsIsCutOffAndTheThreadServesOthers() throws Exception {
        oneThreadGateway();
        s3.createBucket(b -> b.bucket("tmo"));
        try (Socket stuck = connect(gateway.endpoint())) {
            OutputStream out = stuck.getOutputStream();
            out.write("GET /t/x HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII)); // no blank line
            out.flush();
            await().atMost(Duration.ofSeconds(20)).until(() -> cutOff() == 1);
            assertThat(readToClose(stuck.getInputStream())).as("nothing answered, the connection closed").isZero();
        }
        assertThat(s3.listBuckets().buckets()).extracting(Bucket::name).containsExactly("tmo");
    }

    @Test
    void aBodyThatStopsIsCutOffAndNothingIsStored() throws Exception {
        oneThreadGateway();
        s3.createBucket(b -> b.bucket("tmo"));
        String head = S3AuthAndPayloadTest.signedHead(gateway.endpoint(), "PUT", "/tmo/k", Map.of(),
                "UNSIGNED-PAYLOAD", "s3", Map.of(), 1000L);
        try (Socket stalled = connect(gateway.endpoint())) {
            OutputStream out = stalled.getOutputStream();
            out.write(head.getBytes(StandardCharsets.UTF_8));
            out.write(new byte[10]); // 10 of the 1000 bytes announced, then nothing
            out.flush();
            await().atMost(Duration.ofSeconds(20)).until(() -> cutOff() == 1);
            readToClose(stalled.getInputStream());
        }
        assertThatThrownBy(() -> s3.headObject(b -> b.bucket("tmo").key("k"))).isInstanceOf(NoSuchKeyException.class);
        assertThat(s3.listBuckets().buckets()).extracting(Bucket::name).containsExactly("tmo");
    }

    @Test
    void anAnswerNobodyReadsIsCutOff() throws Exception {
        oneThreadGateway();
        s3.createBucket(b -> b.bucket("tmo"));
        int size = 32 << 20; // more than the socket buffers of both ends hold
        s3.putObject(b -> b.bucket("tmo").key("big"), RequestBody.fromBytes(new byte[size]));
        String head = S3AuthAndPayloadTest.signedHead(gateway.endpoint(), "GET", "/tmo/big", Map.of(),
                "UNSIGNED-PAYLOAD", "s3", Map.of(), null);
        try (Socket reader = new Socket()) {
            reader.setReceiveBufferSize(4096);
            reader.connect(new java.net.InetSocketAddress(gateway.endpoint().getHost(), gateway.endpoint().getPort()));
            reader.setSoTimeout(30_000);
            reader.getOutputStream().write(head.getBytes(StandardCharsets.UTF_8));
            reader.getOutputStream().flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> cutOff() == 1);
            assertThat(readToClose(reader.getInputStream())).as("a cut-off answer").isLessThan(size);
        }
        assertThat(s3.getObjectAsBytes(b -> b.bucket("tmo").key("big")).asByteArray()).hasSize(size);
    }

    @Test
    void aPutWaitingForItsCloudsIsNotTheClientsTime() throws Exception {
        s3.close();
        gateway.close();
        hybris.close();
        List<GatedCloudStore> gated = List.of(
                GatedCloudStore.of(new InMemoryCloudStore("c0"), k -> k.contains("slow")),
                GatedCloudStore.of(new InMemoryCloudStore("c1"), k -> k.contains("slow")),
                GatedCloudStore.of(new InMemoryCloudStore("c2"), k -> k.contains("slow")));
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .deadline(Duration.ofSeconds(30));
        gated.forEach(c -> config.cloud((CloudStore) c));
        hybris = Hybris.open(config.build());
        gateway = S3Gateway.builder(hybris).port(0).credentials(ACCESS_KEY, SECRET_KEY).threads(1)
                .clientTimeouts(LIMIT, LIMIT).start();
        s3 = client(ACCESS_KEY, SECRET_KEY);
        s3.createBucket(b -> b.bucket("tmo"));

        CompletableFuture<?> put = CompletableFuture.runAsync(() -> s3.putObject(b -> b.bucket("tmo").key("slow"),
                RequestBody.fromString("value")));
        await().atMost(Duration.ofSeconds(20)).until(() -> gated.stream().mapToInt(GatedCloudStore::blockedCount)
                .sum() >= 2);
        assertThat(gateway.clientTimeouts().armed()).as("no timer runs while the PUT waits for its clouds").isZero();
        gated.forEach(GatedCloudStore::open);
        put.get();
        assertThat(s3.getObjectAsBytes(b -> b.bucket("tmo").key("slow")).asUtf8String()).isEqualTo("value");
        assertThat(cutOff()).isZero();
    }
}
