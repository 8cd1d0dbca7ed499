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

    @Test
    void underABoundSignalACallWithAnAbortActionRunsOnTheCallingThread() {
        String caller = Thread.currentThread().getName();
        try (AbortSignal.Binding bound = new AbortSignal().bind()) {
            assertThat(calls.call("get", () -> Thread.currentThread().getName(), () -> { })).isEqualTo(caller);
            // without an abort action nothing could end its blocking I/O in place: it still goes to a worker
            assertThat(calls.call("get", () -> Thread.currentThread().getName())).startsWith("hybris-test-c1-");
            IllegalStateException boom = new IllegalStateException("boom");
            assertThatThrownBy(() -> calls.call("get", () -> {
                throw boom;
            }, () -> { })).isSameAs(boom);
            assertThatThrownBy(() -> calls.call("get of 'k'", () -> {
                throw new IOException("reset");
            }, () -> { })).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("cloud 'c1': get of 'k' failed");
        }
        assertThat(AbortSignal.current()).isNull();
        assertThat(calls.call("get", () -> Thread.currentThread().getName(), () -> { })).startsWith("hybris-test-c1-");
    }

    @Test
    void firingTheSignalAbortsTheCallInPlaceAndItFailsAsAnInterruptedCall() throws Exception {
        AbortSignal signal = new AbortSignal();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch aborted = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try (AbortSignal.Binding bound = signal.bind()) {
                calls.call("get of 'k'", () -> {
                    assertThat(Thread.currentThread().getName()).isEqualTo("in-place-caller");
                    started.countDown();
                    while (!aborted.await(10, TimeUnit.MILLISECONDS)) {
                        Thread.onSpinWait(); // blocking I/O that ignores interrupts until its request is aborted
                    }
                    throw new IOException("connection closed"); // what an aborted HTTP request's read throws
                }, aborted::countDown);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(Thread.currentThread().isInterrupted() ? t : new AssertionError("flag unset", t));
            }
        }, "in-place-caller");
        caller.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        signal.abort(); // no interrupt: the abort action alone ends the call

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("cloud 'c1': get of 'k' interrupted; its request was aborted")
                .hasCauseInstanceOf(IOException.class);
        assertThat(aborted.getCount()).isZero();
    }

    @Test
    void aFiredSignalStopsACallBeforeItStarts() {
        AbortSignal signal = new AbortSignal();
        signal.abort();
        AtomicBoolean ran = new AtomicBoolean();
        AtomicBoolean abortRan = new AtomicBoolean();
        try (AbortSignal.Binding bound = signal.bind()) {
            assertThatThrownBy(() -> calls.call("put of 'k'", () -> ran.getAndSet(true), () -> abortRan.set(true)))
                    .isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("put of 'k' not started: its request was cancelled");
        }
        assertThat(ran).isFalse();
        assertThat(abortRan).isFalse();
    }

    @Test
    void aCallThatEndedIsNotAbortedByALaterSignal() {
        AbortSignal signal = new AbortSignal();
        AtomicBoolean abortRan = new AtomicBoolean();
        try (AbortSignal.Binding bound = signal.bind()) {
            assertThat(calls.call("get", () -> "v", () -> abortRan.set(true))).isEqualTo("v");
        }
        signal.abort();
        assertThat(abortRan).isFalse();
    }

    @Test
    void closingTheStoreAbortsCallsRunningOnTheirCallersThreads() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch aborted = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try (AbortSignal.Binding bound = new AbortSignal().bind()) {
                calls.call("get of 'k'", () -> {
                    started.countDown();
                    while (!aborted.await(10, TimeUnit.MILLISECONDS)) {
                        Thread.onSpinWait();
                    }
                    throw new IOException("connection closed");
                }, aborted::countDown);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        caller.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        calls.close();

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("cloud 'c1': get of 'k' cancelled: the store is closing");
        assertThat(aborted.getCount()).isZero();
        try (AbortSignal.Binding bound = new AbortSignal().bind()) {
            assertThatThrownBy(() -> calls.call("get of 'k'", () -> null, () -> { }))
                    .isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("get of 'k' not started: the store is closed");
        }
    }
}
