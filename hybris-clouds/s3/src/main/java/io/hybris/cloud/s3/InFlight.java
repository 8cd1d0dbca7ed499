package io.hybris.cloud.s3;

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

    /** The operation running on this thread, or null outside {@link InterruptibleCalls}. */
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
