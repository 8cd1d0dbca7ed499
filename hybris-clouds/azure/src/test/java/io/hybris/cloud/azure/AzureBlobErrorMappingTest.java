/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import io.hybris.spi.CloudStoreException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How service errors an emulator cannot produce on demand map to Hybris exceptions, how many requests
 * {@code retries} allows, and how a request the server holds open ends when its caller is interrupted, against a
 * {@link ScriptedBlobServer}.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class AzureBlobErrorMappingTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private ScriptedBlobServer server;

    @BeforeEach
    void start() throws IOException {
        server = new ScriptedBlobServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private AzureBlobCloudStore store(int retries) {
        return AzureBlobCloudStore.builder("scripted").endpoint(server.endpoint()).account("acct").key(KEY)
                .container("scripted").retries(retries).build();
    }

    @ParameterizedTest(name = "HTTP {0} {1} -> {2}")
    @CsvSource({
            "500, InternalError, transient",
            "503, ServerBusy, transient",
            "502, BadGateway, transient",
            "504, GatewayTimeout, transient",
            "408, RequestTimeout, transient",
            "429, TooManyRequests, transient",
            "409, LeaseIdMissing, transient",
            "403, AuthorizationPermissionMismatch, permanent",
            "401, InvalidAuthenticationInfo, permanent",
            "400, InvalidHeaderValue, permanent",
            "412, ConditionNotMet, permanent",
    })
    void statusesMapToTransientOrPermanentKeepingStatusCodeAndMessage(int status, String code, String kind) {
        server.failWith(status, code);
        try (AzureBlobCloudStore store = store(0)) {
            Class<? extends CloudStoreException> expected = kind.equals("transient") ? TransientCloudException.class
                    : PermanentCloudException.class;
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[] {1}))
                    .isInstanceOf(expected)
                    .hasMessageContainingAll("put of 'hybris/k#1_c'", "HTTP " + status + " " + code,
                            "scripted " + code)
                    .hasMessageNotContaining("null");
            assertThatThrownBy(() -> store.get("hybris/k#1_c", 100))
                    .isInstanceOf(expected)
                    .hasMessageContainingAll("get of 'hybris/k#1_c'", "HTTP " + status + " " + code);
        }
    }

    @Test
    void missingBlobIsEmptyButMissingContainerIsPermanentForEveryOperation() {
        try (AzureBlobCloudStore store = store(0)) {
            server.failWith(404, "BlobNotFound");
            assertThat(store.get("hybris/k#1_c", 100)).isEmpty();
            store.delete("hybris/k#1_c");

            server.failWith(404, "ContainerNotFound");
            assertThatThrownBy(() -> store.get("hybris/k#1_c", 100))
                    .isInstanceOf(PermanentCloudException.class)
                    .hasMessageContainingAll("container 'scripted' does not exist", "hybris.cloud.scripted.create-bucket");
            assertThatThrownBy(() -> store.delete("hybris/k#1_c"))
                    .isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("container 'scripted' does not exist");
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[1]))
                    .isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("container 'scripted' does not exist");
        }
    }

    @Test
    void retriesZeroSendsOneRequestAndRetriesTwoSendsThree() {
        try (AzureBlobCloudStore store = store(0)) {
            server.failWith(503, "ServerBusy");
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[1])).isInstanceOf(TransientCloudException.class);
            assertThat(server.blobRequests()).isEqualTo(1);
        }
        try (AzureBlobCloudStore store = store(2)) {
            server.failWith(503, "ServerBusy");
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[1])).isInstanceOf(TransientCloudException.class);
            assertThat(server.blobRequests()).isEqualTo(3);
            server.failWith(403, "AuthorizationFailure");
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[1])).isInstanceOf(PermanentCloudException.class);
            assertThat(server.blobRequests()).as("a 403 is not retried").isEqualTo(1);
        }
    }

    @Test
    void interruptingACallerWhoseRequestReachedTheServerEndsTheCallAtOnceAndKeepsTheFlag() throws Exception {
        try (AzureBlobCloudStore store = AzureBlobCloudStore.builder("scripted").endpoint(server.endpoint())
                .account("acct").key(KEY).container("scripted").retries(2)
                .requestTimeout(Duration.ofSeconds(60)).build()) {
            server.failWith(404, "BlobNotFound");
            CountDownLatch arrived = server.hold();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            AtomicBoolean flagKept = new AtomicBoolean();
            Thread caller = new Thread(() -> {
                try {
                    store.get("hybris/held#1_c", 100);
                    outcome.complete(null);
                } catch (Throwable t) {
                    flagKept.set(Thread.currentThread().isInterrupted());
                    outcome.complete(t);
                }
            }, "azure-interrupt-test");
            caller.start();
            // interrupt only once the get is in flight: its request is at the server, which does not answer
            assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the get reached the server").isTrue();
            assertThat(outcome).as("the held get has not ended by itself").isNotDone();

            long t0 = System.nanoTime();
            caller.interrupt();
            Throwable thrown = outcome.get(5, TimeUnit.SECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - t0);

            assertThat(thrown).isExactlyInstanceOf(TransientCloudException.class)
                    .hasMessage("cloud 'scripted': get of 'hybris/held#1_c' interrupted; its request was abandoned");
            assertThat(flagKept).as("the caller's interrupt flag is set again").isTrue();
            assertThat(took).as("ended by the interrupt, not a timeout").isLessThan(Duration.ofSeconds(5));
            caller.join(TimeUnit.SECONDS.toMillis(5));
            assertThat(caller.isAlive()).isFalse();
            assertThat(server.blobRequests()).as("the abandoned get is not retried").isEqualTo(1);

            server.release();
            assertThat(store.get("hybris/held#1_c", 100)).as("the store still works").isEmpty();
            assertThat(server.blobRequests()).isEqualTo(2);
        }
    }
}
