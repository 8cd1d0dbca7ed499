/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link Hybris#close()} ends a GET waiting in the worst case (no listed cloud has the copy) with
 * {@link ClientClosedException} at once, not at its deadline, also when nothing the GET calls goes through the
 * client's threads: clouds and a metadata store that bound their calls run on the caller's thread, and an
 * application-supplied metadata store stays open after the client closed.
 */
class CloseDuringWorstCaseGetTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"),
            new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    private final CountDownLatch worstCase = new CountDownLatch(1);
    private Hybris hybris;

    @AfterEach
    void close() {
        if (hybris != null) {
            hybris.close();
        }
        metadata.close();
    }

    @Test
    void closeEndsAGetWaitingInTheWorstCaseAtOnce() throws Exception {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(DEADLINE)
                .probeInterval(Duration.ZERO).gcEnabled(false).listener(new HybrisListener() {
                    @Override
                    public void worstCaseGet(String container, String key) {
                        worstCase.countDown();
                    }
                });
        clouds.forEach(b::cloud);
        hybris = Hybris.open(b.build());
        hybris.put("box", "k", "lost".getBytes(StandardCharsets.UTF_8));
        for (InMemoryCloudStore c : clouds) { // every copy lost: the GET waits for one until its deadline
            c.list("").stream().map(CloudObject::key).forEach(c::delete);
        }

        CompletableFuture<?> get = CompletableFuture.supplyAsync(() -> hybris.get("box", "k"));
        assertThat(worstCase.await(20, TimeUnit.SECONDS)).as("the GET reached the worst case").isTrue();
        long t0 = System.nanoTime();
        hybris.close();

        Throwable outcome = catchThrowable(() -> get.get(DEADLINE.toSeconds() * 2, TimeUnit.SECONDS));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(outcome).isInstanceOf(ExecutionException.class);
        Throwable cause = outcome.getCause() instanceof CompletionException c ? c.getCause() : outcome.getCause();
        assertThat(cause).isInstanceOf(ClientClosedException.class);
        assertThat(took).as("ended by close(), not by its deadline").isLessThan(Duration.ofSeconds(4));
    }
}
