/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The calls of an {@link AzureBlobCloudStore} that are running, so that closing the store ends them. The SDK's
 * blocking calls end at once when their thread is interrupted (the subscription is cancelled, which cancels the JDK
 * HTTP exchange); stopping the HTTP client's executor does not end an exchange in flight, which would otherwise run
 * on until its {@code request-timeout}. {@link #cancelAll()} interrupts the threads of the calls still running; a call
 * that ends learns from {@link Call#end()} whether that interrupt was the store's, and then clears it, so the
 * caller's thread is left as it was. Thread-safe.
 */
final class CallsInFlight {
    private final Set<Call> running = ConcurrentHashMap.newKeySet();

    /** Registers a call running on the current thread; {@link Call#end()} it when it returns or throws. */
    Call start() {
        Call call = new Call(Thread.currentThread());
        running.add(call);
        return call;
    }

    /** Interrupts the thread of every call still running. */
    void cancelAll() {
        for (Call call : running) {
            call.cancel();
        }
    }

    /** One running call. */
    final class Call {
        private final Thread thread;
        private boolean ended;
        private boolean cancelled;
        private boolean interruptedBefore;

        private Call(Thread thread) {
            this.thread = thread;
        }

        private synchronized void cancel() {
            if (!ended && !cancelled) {
                cancelled = true;
                interruptedBefore = thread.isInterrupted(); // then the interrupt is the caller's: it stays
                thread.interrupt();
            }
        }

        /**
         * Ends the call (on its own thread); if {@link CallsInFlight#cancelAll()} interrupted it, clears that
         * interrupt and returns true. Idempotent.
         */
        boolean end() {
            running.remove(this);
            synchronized (this) {
                if (!ended) {
                    ended = true;
                    if (cancelled && !interruptedBefore) {
                        Thread.interrupted(); // the store's interrupt, not the caller's
                    }
                }
                return cancelled;
            }
        }
    }
}
