/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The future of an async call: {@code cancel(true)} interrupts the client's thread running the call (a plain
 * {@code supplyAsync} future ignores the flag, so a cancelled put went on to commit and a cancelled call blocked in
 * the caller's stream kept its thread), and a result that arrives after a cancel is handed to {@code discard} (a
 * stream nobody will read is closed). Completes exactly as {@code supplyAsync} does otherwise.
 */
final class AsyncCall<T> extends CompletableFuture<T> {
    private final Supplier<T> call;
    private final Consumer<T> discard;
    /** The thread running the call, while it runs; guarded by this. */
    private Thread runner;

    AsyncCall(Supplier<T> call, Consumer<T> discard) {
        this.call = call;
        this.discard = discard;
    }

    /**
     * Runs {@code call} on {@code executor}; a result that arrives after a cancel goes to {@code discard} (null:
     * dropped).
     *
     * @throws java.util.concurrent.RejectedExecutionException if the executor was shut down
     */
    static <T> AsyncCall<T> submit(java.util.concurrent.Executor executor, Supplier<T> call, Consumer<T> discard) {
        AsyncCall<T> future = new AsyncCall<>(call, discard);
        executor.execute(future::run);
        return future;
    }

    /** Closes a stream opened for a future that was cancelled meanwhile: nobody will read or close it. */
    static void closeUnread(java.util.Optional<ValueStream> opened) {
        opened.ifPresent(s -> {
            try {
                s.close();
            } catch (java.io.IOException e) {
                // closing only cancels fetches: nothing to report to a caller who is gone
            }
        });
    }

    /** The task the client's executor runs. */
    void run() {
        synchronized (this) {
            if (isDone()) {
                return; // cancelled before it started
            }
            runner = Thread.currentThread();
        }
        T result;
        try {
            result = call.get();
        } catch (Throwable t) {
            endRun();
            completeExceptionally(t instanceof CompletionException ? t : new CompletionException(t));
            return;
        }
        endRun();
        if (!complete(result) && discard != null) {
            discard.accept(result);
        }
    }

    private void endRun() {
        synchronized (this) {
            runner = null;
        }
        Thread.interrupted(); // a cancel's interrupt meant for the call, not for the pool's next task
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled && mayInterruptIfRunning) {
            synchronized (this) {
                if (runner != null) {
                    runner.interrupt();
                }
            }
        }
        return cancelled;
    }
}
