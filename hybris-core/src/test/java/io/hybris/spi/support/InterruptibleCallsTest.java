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
import java.util.concurrent.atomic.AtomicReference;

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
        BlockedCall call = BlockedCall.start(calls, null, "interrupted-caller");
        call.caller.interrupt();
        assertThat(call.outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("get of 'k' interrupted; its request was aborted");
        assertThat(call.flagSet).isTrue();
        assertThat(call.aborted.getCount()).isZero();
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
        BlockedCall call = BlockedCall.start(calls, signal, "in-place-caller");
        assertThat(call.ranOn).hasValue("in-place-caller");
        signal.abort(); // no interrupt: the abort action alone ends the call

        assertThat(call.outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("cloud 'c1': get of 'k' interrupted; its request was aborted")
                .hasCauseInstanceOf(IOException.class);
        assertThat(call.flagSet).isTrue();
        assertThat(call.aborted.getCount()).isZero();
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
        BlockedCall call = BlockedCall.start(calls, new AbortSignal(), "in-place-caller");
        calls.close();

        assertThat(call.outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("cloud 'c1': get of 'k' cancelled: the store is closing");
        assertThat(call.aborted.getCount()).isZero();
        try (AbortSignal.Binding bound = new AbortSignal().bind()) {
            assertThatThrownBy(() -> calls.call("get of 'k'", () -> null, () -> { }))
                    .isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("get of 'k' not started: the store is closed");
        }
    }

    /**
     * A {@code get of 'k'} made on a new thread (with {@code signal} bound, if not null) whose task is blocking I/O
     * that ignores interrupts and ends, throwing as a closed connection does, only when its abort action runs;
     * {@link #start} returns once the task is running.
     */
    private static final class BlockedCall {
        final CountDownLatch aborted = new CountDownLatch(1);
        final CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        final AtomicReference<String> ranOn = new AtomicReference<>();
        final AtomicBoolean flagSet = new AtomicBoolean();
        Thread caller;

        static BlockedCall start(InterruptibleCalls calls, AbortSignal signal, String threadName)
                throws InterruptedException {
            BlockedCall call = new BlockedCall();
            CountDownLatch started = new CountDownLatch(1);
            call.caller = new Thread(() -> {
                try (AbortSignal.Binding bound = signal == null ? null : signal.bind()) {
                    calls.call("get of 'k'", () -> {
                        call.ranOn.set(Thread.currentThread().getName());
                        started.countDown();
                        while (!call.aborted.await(10, TimeUnit.MILLISECONDS)) {
                            Thread.onSpinWait();
                        }
                        throw new IOException("connection closed");
                    }, call.aborted::countDown);
                    call.outcome.complete(null);
                } catch (Throwable t) {
                    call.flagSet.set(Thread.currentThread().isInterrupted());
                    call.outcome.complete(t);
                }
            }, threadName);
            call.caller.start();
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            return call;
        }
    }
}
