/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing the store ends its calls in flight at once (as the S3 and GCS drivers do), not at their
 * {@code request-timeout}, and leaves the callers' interrupt flags as they were. A {@link ScriptedBlobServer} holds
 * the request open without an answer.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class AzureCloseInFlightTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    @Test
    void closingTheStoreEndsACallInFlightAndLeavesTheCallersInterruptFlagAlone() throws Exception {
        try (ScriptedBlobServer server = new ScriptedBlobServer()) {
            AzureBlobCloudStore store = AzureBlobCloudStore.builder("scripted").endpoint(server.endpoint())
                    .account("acct").key(KEY).container("scripted").requestTimeout(Duration.ofSeconds(30)).build();
            CountDownLatch arrived = server.hold();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            AtomicBoolean flagSet = new AtomicBoolean();
            Thread caller = new Thread(() -> {
                try {
                    store.get("hybris/held#1_c", 100);
                    outcome.complete(null);
                } catch (Throwable t) {
                    flagSet.set(Thread.currentThread().isInterrupted());
                    outcome.complete(t);
                }
            }, "azure-close-test");
            caller.start();
            assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the get reached the server").isTrue();

            long t0 = System.nanoTime();
            store.close();
            Throwable thrown = outcome.get(20, TimeUnit.SECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            server.release();

            assertThat(thrown).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("get of 'hybris/held#1_c' cancelled: the store was closed");
            assertThat(took).as("ended by close(), not by the 30 s request timeout").isLessThan(Duration.ofSeconds(5));
            assertThat(flagSet).as("the store's interrupt is not left on the caller's thread").isFalse();
        }
    }
}
