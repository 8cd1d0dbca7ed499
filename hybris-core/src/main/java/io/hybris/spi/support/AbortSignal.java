/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import java.util.ArrayList;
import java.util.List;

/**
 * Lets the code that runs a task on a thread abort the blocking cloud calls the task makes there, without a second
 * thread. Blocking socket I/O ignores {@link Thread#interrupt()}, so {@link InterruptibleCalls} normally runs each
 * SDK call on a worker thread while the caller waits interruptibly: a thread hand-off each way on every call (about
 * 0.1 ms on a 10 ms request, measured on a 2-core host). Hybris binds a signal to each cloud request it runs on one of
 * its I/O threads and fires it, as well as interrupting the thread, when it no longer needs the request (another
 * cloud answered first, the caller was interrupted, the client closes). A driver call made through
 * {@link InterruptibleCalls#call(String, java.util.concurrent.Callable, Runnable)} on a thread with a signal bound runs
 * on that thread, and firing the signal runs the call's abort action (for instance aborting its HTTP request, which
 * closes the connection and ends the blocked read).
 *
 * <pre>{@code
 * AbortSignal signal = new AbortSignal();
 * // on the thread that makes the calls
 * try (AbortSignal.Binding bound = signal.bind()) {
 *     cloud.get(objectKey, maxBytes);      // runs here; signal.abort() from another thread aborts it
 * }
 * }</pre>
 *
 * A signal fires once; actions registered after it fired run at once. Thread-safe. Drivers that use
 * {@link InterruptibleCalls} need nothing else; other drivers may ignore signals (the interrupt still arrives).
 */
public final class AbortSignal {
    private static final ThreadLocal<AbortSignal> BOUND = new ThreadLocal<>();

    private final List<Registration> actions = new ArrayList<>();
    private boolean aborted;

    /** A new signal that has not fired. */
    public AbortSignal() {
    }

    /** The signal bound to the current thread, or null if none is. */
    public static AbortSignal current() {
        return BOUND.get();
    }

    /**
     * Binds this signal to the current thread until the returned binding is closed (which restores the signal
     * bound before, if any). Close it on the same thread.
     */
    public Binding bind() {
        AbortSignal previous = BOUND.get();
        BOUND.set(this);
        return () -> {
            if (previous == null) {
                BOUND.remove();
            } else {
                BOUND.set(previous);
            }
        };
    }

    /**
     * Runs {@code action} when this signal fires, unless the returned registration was closed first.
     *
     * @return the registration, to close once the call it aborts is over; null if the signal has already fired (the
     *     action is not run: the call should not start)
     */
    public Registration onAbort(Runnable action) {
        Registration registration = new Registration(action);
        synchronized (this) {
            if (aborted) {
                return null;
            }
            actions.add(registration);
        }
        return registration;
    }

    /** Fires the signal: marks it fired, then runs every registered action once, on the calling thread. */
    public void abort() {
        List<Registration> toRun;
        synchronized (this) {
            if (aborted) {
                return;
            }
            aborted = true;
            toRun = new ArrayList<>(actions);
            actions.clear();
        }
        for (Registration r : toRun) {
            try {
                r.action.run();
            } catch (RuntimeException ignored) {
                // the call is being given up; a failure to abort it leaves it to its own timeout
            }
        }
    }

    /** Whether {@link #abort()} was called. */
    public synchronized boolean isAborted() {
        return aborted;
    }

    private synchronized void remove(Registration registration) {
        actions.remove(registration);
    }

    /** A signal's binding to a thread; closing it unbinds the signal. */
    public interface Binding extends AutoCloseable {
        @Override
        void close();
    }

    /** An abort action registered with {@link #onAbort}; closing it unregisters the action. */
    public final class Registration implements AutoCloseable {
        private final Runnable action;

        private Registration(Runnable action) {
            this.action = action;
        }

        @Override
        public void close() {
            remove(this);
        }
    }
}
