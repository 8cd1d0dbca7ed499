/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CloudStatus;
import io.hybris.Hybris;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client is thread-safe, and refreshLatencyRanking may be called at any time (it also runs in the background).
 * Two probes running at once on one client used the same probe object name per cloud and size class, so one
 * probe's delete made the other's read-back fail and a healthy cloud was recorded as failing; each probe object now
 * has a name of its own.
 */
class ConcurrentProbeEdgesTest {
    /** Holds the first probe read-back until a probe object has been deleted (by the other probe). */
    static final class HoldFirstProbeRead extends ForwardingCloudStore {
        final AtomicBoolean held = new AtomicBoolean();
        final CountDownLatch deleted = new CountDownLatch(1);

        HoldFirstProbeRead(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            if (objectKey.contains(".probe/") && held.compareAndSet(false, true)) {
                try {
                    deleted.await(8, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.get(objectKey, maxBytes);
        }

        @Override
        public void delete(String objectKey) {
            super.delete(objectKey);
            if (objectKey.contains(".probe/")) {
                deleted.countDown();
            }
        }
    }

    private final StreamingFixture fx = new StreamingFixture(c -> c.id().equals("c0") ? new HoldFirstProbeRead(c) : c);

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void twoProbesAtOnceDoNotMarkAHealthyCloudFailing() throws Exception {
        Hybris h = fx.open();

        CompletableFuture<Integer> a = CompletableFuture.supplyAsync(h::refreshLatencyRanking);
        CompletableFuture<Integer> b = CompletableFuture.supplyAsync(h::refreshLatencyRanking);
        a.get(30, TimeUnit.SECONDS);
        b.get(30, TimeUnit.SECONDS);

        CloudStatus c0 = h.cloudStatus().stream().filter(s -> s.cloudId().equals("c0")).findFirst().orElseThrow();
        assertThat(c0.errors()).as(c0.toString()).isZero();
        assertThat(c0.failing()).as(c0.toString()).isFalse();
    }
}
