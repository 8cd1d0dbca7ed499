/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import static org.awaitility.Awaitility.await;

/** What the tests of close() from callbacks and other threads share: their clients' config, a background close. */
final class Closing {
    private Closing() {
    }

    /** {@code f=1} over {@code clouds}, 5 s deadlines and short timers, with {@code listener} (null: none). */
    static HybrisConfig.Builder config(MetadataStore metadata, List<? extends CloudStore> clouds,
                                       HybrisListener listener) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(5))
                .timerMin(Duration.ofMillis(100)).timerInitial(Duration.ofMillis(300));
        clouds.forEach(b::cloud);
        if (listener != null) {
            b.listener(listener);
        }
        return b;
    }

    /**
     * Closes {@code h} on a thread of its own and returns once that close has ended or its thread waits in
     * {@code waitingIn} (for what the test holds); the future then gives {@code then}, read right after close()
     * returned.
     */
    static <T> CompletableFuture<T> inBackground(Hybris h, Thread.State waitingIn, Supplier<T> then) {
        Thread[] closer = new Thread[1];
        CompletableFuture<T> closed = CompletableFuture.supplyAsync(() -> {
            closer[0] = Thread.currentThread();
            h.close();
            return then.get();
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> closed.isDone()
                || closer[0] != null && closer[0].getState() == waitingIn);
        return closed;
    }
}
