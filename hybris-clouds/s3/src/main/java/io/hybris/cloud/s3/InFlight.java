/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.support.InterruptibleCalls;
import software.amazon.awssdk.http.Abortable;

import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP requests and response streams of one store operation, so a thread other than the one doing the I/O can
 * abort them (closing their connections) when the caller is interrupted. Thread-safe.
 */
final class InFlight {
    private static final ThreadLocal<InFlight> CURRENT = new ThreadLocal<>();

    private final List<Abortable> abortables = new ArrayList<>();
    private boolean aborted;
    private volatile long attemptStartNanos = System.nanoTime();

    /** One blocking operation; it receives its {@link InFlight} to register response streams with. */
    interface Operation<T> {
        T run(InFlight inFlight);
    }

    /**
     * Runs {@code operation} through {@code calls} on a worker thread bound to a new {@link InFlight}, which is
     * aborted (closing the operation's connections) if the caller is interrupted.
     */
    @SuppressWarnings("try") // the scope is held only to unbind on close
    static <T> T call(InterruptibleCalls calls, String what, Operation<T> operation) {
        InFlight inFlight = new InFlight();
        return calls.call(what, () -> {
            try (Scope scope = inFlight.bind()) {
                return operation.run(inFlight);
            }
        }, inFlight::abort);
    }

    /** The operation running on this thread, or null outside {@link #call}. */
    static InFlight current() {
        return CURRENT.get();
    }

    /** Binds this operation to the current thread until the returned scope is closed. */
    Scope bind() {
        CURRENT.set(this);
        return CURRENT::remove;
    }

    /** Tracks {@code abortable}; aborts it at once if this operation was already aborted. */
    void register(Abortable abortable) {
        synchronized (this) {
            if (!aborted) {
                abortables.add(abortable);
                return;
            }
        }
        abortQuietly(abortable);
    }

    /** Notes that the SDK is sending a request (a new attempt) now. */
    void attemptStarted() {
        attemptStartNanos = System.nanoTime();
    }

    /** When the latest attempt started ({@link System#nanoTime()}); the operation's start before any. */
    long attemptStartNanos() {
        return attemptStartNanos;
    }

    /** Whether {@link #abort()} was called. */
    synchronized boolean isAborted() {
        return aborted;
    }

    /** Aborts every tracked request and stream, and any registered later. Idempotent. */
    void abort() {
        List<Abortable> toAbort;
        synchronized (this) {
            aborted = true;
            toAbort = new ArrayList<>(abortables);
            abortables.clear();
        }
        toAbort.forEach(InFlight::abortQuietly);
    }

    private static void abortQuietly(Abortable abortable) {
        try {
            abortable.abort();
        } catch (RuntimeException ignored) {
            // the connection is being thrown away; a failure to close it changes nothing for the caller
        }
    }

    /** Unbinds an operation from its thread. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
