/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code retries} is the exact number of extra attempts (counted as connections to a server that hangs up on
 * every request), and a store without keys takes them from the AWS default credentials chain.
 */
class S3RetriesAndCredentialsTest {
    private HangingUpServer server;

    @AfterEach
    void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void noRetriesByDefaultAndExactlyTheConfiguredNumberOtherwise() throws Exception {
        server = new HangingUpServer();
        try (S3CloudStore store = S3CloudStore.builder("flaky").endpoint(server.endpoint()).credentials("a", "b")
                .bucket("some-bucket").build()) {
            int before = server.awaitQuiet();
            assertThatThrownBy(() -> store.put("hybris/c/k#1_a", new byte[10]))
                    .isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("cloud 'flaky': put of 'hybris/c/k#1_a' (10 bytes) on bucket 'some-bucket'");
            assertThat(server.awaitQuiet() - before).isEqualTo(1);
        }
        try (S3CloudStore store = S3CloudStore.builder("flaky").endpoint(server.endpoint()).credentials("a", "b")
                .bucket("some-bucket").retries(2).build()) {
            int before = server.awaitQuiet();
            assertThatThrownBy(() -> store.get("hybris/c/k#1_a", 10)).isInstanceOf(TransientCloudException.class);
            assertThat(server.awaitQuiet() - before).isEqualTo(3);
        }
    }

    @Test
    void withoutKeysTheDefaultCredentialsChainIsUsed() {
        Minio minio = Minio.require();
        String bucket = Minio.freshBucket();
        minio.createBucket(bucket);
        System.setProperty("aws.accessKeyId", minio.accessKey());
        System.setProperty("aws.secretAccessKey", minio.secretKey());
        try (S3CloudStore store = S3CloudStore.builder("chain").endpoint(minio.endpoint()).bucket(bucket).build()) {
            byte[] value = "keys from the chain".getBytes(StandardCharsets.UTF_8);
            store.put("hybris/c/k#1_a", value);
            assertThat(store.get("hybris/c/k#1_a", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
            minio.deleteBucket(bucket);
            minio.close();
        }
    }

    /** Accepts connections, reads the start of a request and hangs up without answering; counts connections. */
    private static final class HangingUpServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final AtomicInteger accepted = new AtomicInteger();
        private final AtomicInteger closed = new AtomicInteger();

        HangingUpServer() throws IOException {
            Thread t = new Thread(() -> {
                while (!socket.isClosed()) {
                    try (Socket s = socket.accept()) {
                        accepted.incrementAndGet();
                        s.getInputStream().read(new byte[16]);
                    } catch (IOException e) {
                        // closed, or the client gave up first
                    } finally {
                        closed.incrementAndGet();
                    }
                }
            }, "hanging-up-server");
            t.setDaemon(true);
            t.start();
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }

        /** The number of connections so far, once every accepted one has been hung up. */
        int awaitQuiet() {
            await().until(() -> closed.get() == accepted.get());
            return accepted.get();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
