/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import io.hybris.spi.support.AbortSignal;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a driver whose blocking calls go through {@code InterruptibleCalls} with an abort action must do under an
 * {@link AbortSignal} (Hybris binds one to each cloud request it runs on its I/O threads), checked against a real
 * server behind a toxiproxy proxy: the call runs on the calling thread (no worker of the driver's reads the
 * response), and firing the signal ends it at once, not at its request timeout. Used by the S3 and GCS driver tests.
 */
public final class AbortSignalChecks {
    private AbortSignalChecks() {
    }

    /**
     * Checks that a GET of {@code key} (holding {@code value}) under a signal runs on the calling thread and that
     * the signal ends it while {@code proxy} holds the answer back; restores the proxy and reads the value again.
     *
     * @param store        a store whose endpoint is {@code proxy}, with a request timeout well above 10 s
     * @param workerPrefix the name prefix of the driver's worker threads, none of which may be reading the answer
     */
    public static void signalEndsABlockedGetOnTheCallingThread(CloudStore store, String key, byte[] value,
                                                              Toxiproxy.Proxy proxy, String workerPrefix)
            throws Exception {
        try (AbortSignal.Binding bound = new AbortSignal().bind()) {
            assertThat(store.get(key, value.length)).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
        }
        proxy.latency(Duration.ofSeconds(60));

        AbortSignal signal = new AbortSignal();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try (AbortSignal.Binding bound = signal.bind()) {
                store.get(key, value.length);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        }, "signal-bound-caller");
        caller.start();
        // the caller itself blocks in the socket read: no worker thread is involved
        await().atMost(Duration.ofSeconds(10)).until(() -> caller.getState() == Thread.State.RUNNABLE
                && Arrays.stream(caller.getStackTrace()).anyMatch(f -> f.getMethodName().contains("read")));
        assertThat(Thread.getAllStackTraces().keySet()).as("a worker of the driver reads the answer")
                .noneMatch(t -> t.getName().startsWith(workerPrefix) && t.getState() == Thread.State.RUNNABLE);
        long t0 = System.nanoTime();
        signal.abort();

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("cloud '" + store.id() + "': get of '" + key
                        + "' interrupted; its request was aborted");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        caller.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(caller.isAlive()).isFalse();

        proxy.latency(Duration.ZERO);
        assertThat(store.get(key, value.length)).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
    }
}
