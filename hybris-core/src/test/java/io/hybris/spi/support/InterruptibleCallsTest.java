/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class InterruptibleCallsTest {
    private final InterruptibleCalls calls = new InterruptibleCalls("c1", "hybris-test-c1-");

    @AfterEach
    void close() {
        calls.close();
        Thread.interrupted();
    }

    @Test
    void returnsTheResultOnAWorkerAndRethrowsUncheckedExceptions() {
        assertThat(calls.call("get", () -> Thread.currentThread().getName())).startsWith("hybris-test-c1-");
        IllegalStateException boom = new IllegalStateException("boom");
        assertThatThrownBy(() -> calls.call("get", () -> {
            throw boom;
        })).isSameAs(boom);
        assertThatThrownBy(() -> calls.call("get of 'k'", () -> {
            throw new IOException("reset");
        })).isInstanceOf(TransientCloudException.class).hasMessageContaining("cloud 'c1': get of 'k' failed");
    }

    @Test
    void anInterruptedCallerDoesNotStart() {
        AtomicBoolean ran = new AtomicBoolean();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> calls.call("put", () -> ran.getAndSet(true)))
                .isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("put not started: the calling thread is interrupted");
        assertThat(Thread.interrupted()).isTrue();
        assertThat(ran).isFalse();
    }

    @Test
    void interruptingTheCallerAbortsTheRequestAndReturnsAtOnceKeepingTheFlag() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch aborted = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                calls.call("get of 'k'", () -> {
                    started.countDown();
                    while (!aborted.await(10, TimeUnit.MILLISECONDS)) {
                        Thread.onSpinWait(); // blocking I/O that ignores interrupts until its request is aborted
                    }
                    return "late";
                }, aborted::countDown);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(Thread.currentThread().isInterrupted() ? t : new AssertionError("flag lost", t));
            }
        });
        caller.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("get of 'k' interrupted; its request was aborted");
        assertThat(aborted.getCount()).isZero();
    }

    @Test
    void afterCloseCallsFailAsATransientCloudFailureAndTheWorkersExit() {
        calls.call("warm-up", () -> null);
        calls.close();
        assertThatThrownBy(() -> calls.call("get of 'k'", () -> null))
                .isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("cloud 'c1': get of 'k' not started: the store is closed");
        await().atMost(java.time.Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("hybris-test-c1-")));
    }
}
