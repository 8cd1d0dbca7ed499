/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.util.concurrent.CompletableFuture;

/**
 * A client call run on a thread of its own, so that a test can interrupt its caller: the outcome is the call's
 * failure, or null if it returned. Thread-safe.
 */
final class InterruptibleCall {
    private final CompletableFuture<Thread> caller = new CompletableFuture<>();
    private final CompletableFuture<Throwable> outcome;

    private InterruptibleCall(Runnable call) {
        outcome = CompletableFuture.supplyAsync(() -> {
            caller.complete(Thread.currentThread());
            try {
                call.run();
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
    }

    /** Starts {@code call} on another thread. */
    static InterruptibleCall start(Runnable call) {
        return new InterruptibleCall(call);
    }

    /** Interrupts the calling thread (once it has started). */
    void interrupt() {
        caller.join().interrupt();
    }

    /** Whether the call has ended (returned or failed). */
    boolean isDone() {
        return outcome.isDone();
    }

    /** Waits for the call: its failure, or null if it returned. */
    Throwable join() {
        return outcome.join();
    }
}
