/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.VersionedValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tputAsync} takes the values as they are when it is called, as {@code putAsync} does: the caller may reuse
 * its arrays as soon as the call returns, while the transaction still runs on the client's threads.
 */
class TputAsyncCopiesTest {
    private static final Duration AWAIT = Duration.ofSeconds(20);

    private final CountDownLatch reading = new CountDownLatch(1);
    private final CountDownLatch readMayGo = new CountDownLatch(1);
    private Hybris h;

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void theCallersArraysAreCopiedWhenTheCallIsMade() throws Exception {
        ForwardingMetadataStore held = new ForwardingMetadataStore(new InMemoryMetadataStore()) {
            @Override
            public Optional<VersionedValue> read(MetadataKey key) {
                if (reading.getCount() > 0) { // the transaction's first metadata read waits for the test
                    reading.countDown();
                    try {
                        readMayGo.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.read(key);
            }
        };
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(held).deadline(AWAIT)
                .probeInterval(Duration.ZERO).probeOnOpen(false);
        List.of("c0", "c1", "c2").forEach(id -> b.cloud(new InMemoryCloudStore(id)));
        h = Hybris.open(b.build());

        byte[] a = "original-a".getBytes(StandardCharsets.UTF_8);
        byte[] bee = "original-b".getBytes(StandardCharsets.UTF_8);
        CompletableFuture<Map<String, VersionInfo>> f = h.tputAsync("box", Map.of("a", a, "b", bee));
        assertThat(reading.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        a[0] = 'X'; // the caller reuses its buffers once the call returned
        bee[0] = 'Y';
        readMayGo.countDown();
        f.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(new String(h.get("box", "a").orElseThrow(), StandardCharsets.UTF_8)).isEqualTo("original-a");
        assertThat(new String(h.get("box", "b").orElseThrow(), StandardCharsets.UTF_8)).isEqualTo("original-b");
    }
}
