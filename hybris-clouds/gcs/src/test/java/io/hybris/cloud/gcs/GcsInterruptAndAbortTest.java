/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import io.hybris.spi.TransientCloudException;
import io.hybris.spi.support.AbortSignal;
import io.hybris.testkit.AbortSignalChecks;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.Toxiproxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A GCS endpoint that stops answering (fake-gcs-server behind a toxiproxy proxy with a minute of latency): an
 * interrupted call and a call whose {@link AbortSignal} fires end at once, not at the request timeout, with a
 * {@link TransientCloudException}; the blocked socket read is ended too (no thread stays in it), and the store works
 * again once the endpoint answers. Before the driver's requests could be aborted, an abandoned request held a
 * worker thread in its socket read until the request timeout.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class GcsInterruptAndAbortTest {
    private static final byte[] VALUE = "still here".getBytes(StandardCharsets.UTF_8);
    private static final String KEY = "hybris/c/k#1_a";

    private Toxiproxy.Proxy proxy;
    private GcsCloudStore store;

    @BeforeEach
    void setUp() {
        TestEnvironment env = TestEnvironment.require();
        GcsEmulator gcs = GcsEmulator.require();
        proxy = new Toxiproxy(env.toxiproxyApi()).create("gcs-driver-abort-test", gcs.endpoint());
        store = GcsCloudStore.builder("slow").endpoint(proxy.endpoint()).project(gcs.project()).anonymous(true)
                .bucket(GcsEmulator.freshBucket("abort")).createBucket(true)
                .requestTimeout(Duration.ofSeconds(60)).build();
        store.put(KEY, VALUE);
    }

    @AfterEach
    void tearDown() {
        if (store != null) {
            proxy.latency(Duration.ZERO);
            store.delete(KEY);
            store.close();
        }
        if (proxy != null) {
            proxy.delete();
        }
    }

    /** The name prefix of the store's worker threads. */
    private static final String WORKERS = "hybris-gcs-slow-";

    /** Whether a thread whose name starts with {@code namePrefix} is blocked reading a socket. */
    private static boolean aThreadReadsASocket(String namePrefix) {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith(namePrefix))
                .anyMatch(e -> e.getKey().getState() == Thread.State.RUNNABLE && Arrays.stream(e.getValue())
                        .anyMatch(f -> f.getClassName().contains("SocketInputStream")
                                || f.getClassName().contains("NioSocketImpl")));
    }

    @Test
    void aGetUnderAnAbortSignalRunsOnTheCallingThreadAndTheSignalEndsIt() throws Exception {
        AbortSignalChecks.signalEndsABlockedGetOnTheCallingThread(store, KEY, VALUE, proxy, WORKERS);
    }

    @Test
    void anInterruptedGetEndsAtOnceAndItsWorkerStopsReading() throws Exception {
        proxy.latency(Duration.ofSeconds(60));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        CompletableFuture<Boolean> flagKept = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                store.get(KEY, 100);
                outcome.complete(null);
            } catch (Throwable t) {
                flagKept.complete(Thread.currentThread().isInterrupted());
                outcome.complete(t);
            }
        }, "gcs-interrupted-caller");
        caller.start();
        // the caller waits for its worker, which is blocked on the delayed response
        await().atMost(Duration.ofSeconds(10)).until(() -> caller.getState() == Thread.State.WAITING
                && aThreadReadsASocket(WORKERS));
        long t0 = System.nanoTime();
        caller.interrupt();

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("cloud 'slow': get of '" + KEY + "' interrupted; its request was aborted");
        assertThat(flagKept.get(1, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        // the aborted request's connection was shut down, so its worker no longer reads it
        await().atMost(Duration.ofSeconds(5)).until(() -> !aThreadReadsASocket(WORKERS));

        proxy.latency(Duration.ZERO);
        assertThat(store.get(KEY, 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
    }

    @Test
    void closingTheStoreAbortsACallRunningOnItsCaller() throws Exception {
        proxy.latency(Duration.ofSeconds(60));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try (AbortSignal.Binding bound = new AbortSignal().bind()) {
                store.put("hybris/c/other#1_a", VALUE);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        }, "gcs-closed-caller");
        caller.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> aThreadReadsASocket("gcs-closed-caller"));
        long t0 = System.nanoTime();
        store.close();

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("put of 'hybris/c/other#1_a'");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        store = null; // closed: nothing to clean up but the proxy
    }
}
