/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two migrations of one client at once (two threads, each moving the copies off another cloud): each keeps this
 * client's writes off its cloud until it ends, whatever the other does. The one that ends first must not put its
 * peer's cloud back into use while the peer is still moving copies off it.
 */
class ConcurrentMigrationsTest {
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final CountDownLatch firstAtKey = new CountDownLatch(1);
    private final CountDownLatch releaseFirst = new CountDownLatch(1);
    private Hybris hybris;

    @AfterEach
    void close() {
        releaseFirst.countDown();
        if (hybris != null) {
            hybris.close();
        }
        metadata.close();
    }

    @Test
    void aMigrationThatEndsFirstKeepsTheOthersCloudRetired() throws Exception {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).probeInterval(Duration.ZERO)
                .deadline(Duration.ofSeconds(20));
        b.cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"));
        for (int i = 2; i < 5; i++) { // slower: whatever they measure, writes prefer c0 and c1 when they may
            b.cloud(SlowCloudStore.of(new InMemoryCloudStore("c" + i), Duration.ofMillis(30)));
        }
        hybris = Hybris.open(b.build());
        assertThat(hybris.put("box", "a", bytes("a")).clouds()).containsExactlyInAnyOrder("c0", "c1");

        ScrubListener holdAtFirstKey = new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                firstAtKey.countDown();
                try {
                    releaseFirst.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        CompletableFuture<ScrubReport> offC0 = CompletableFuture.supplyAsync(
                () -> hybris.migrate("c0", "c3", ScrubOptions.listing().listener(holdAtFirstKey)));
        assertThat(firstAtKey.await(20, TimeUnit.SECONDS)).as("the migration off c0 is running").isTrue();

        hybris.migrate("c1", "c4", ScrubOptions.listing()); // starts and ends while the one off c0 runs

        assertThat(hybris.put("box", "b", bytes("b")).clouds()).as("c0 is still being migrated off")
                .doesNotContain("c0");
        releaseFirst.countDown();
        offC0.get(20, TimeUnit.SECONDS);
        assertThat(hybris.put("box", "c", bytes("c")).clouds()).as("no migration runs: back in use")
                .containsExactlyInAnyOrder("c0", "c1");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
