/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;

import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes a driver's blocking SDK calls interruptible, as {@link CloudStore} asks: Hybris interrupts a request it no
 * longer needs, but blocking socket I/O ignores {@link Thread#interrupt()}. Each call runs on a worker thread while
 * the caller waits interruptibly; when the caller is interrupted it runs the call's abort action (e.g. aborting the
 * HTTP request, which closes its connection and ends the worker's I/O), interrupts the worker and returns at once
 * with a {@link TransientCloudException}, keeping its interrupt flag. Without an abort action the request is
 * abandoned and may run on in the background until its next interrupt check or its timeout.
 *
 * <pre>{@code
 * private final InterruptibleCalls calls = new InterruptibleCalls(cloudId, "hybris-gcs-" + cloudId + "-");
 *
 * public void delete(String objectKey) {
 *     calls.call("delete of '" + objectKey + "'", () -> sdk.delete(objectKey));
 * }
 * }</pre>
 *
 * A call with an abort action made on a thread with an {@link AbortSignal} bound (Hybris binds one to each cloud
 * request it runs on its I/O threads) runs on the calling thread instead, with no hand-off: firing the signal runs the
 * abort action, and the call then fails as an interrupted one does here.
 *
 * After {@link #close()}, calls fail with a {@link TransientCloudException} saying the store is closed (a closed
 * store is a failed cloud to Hybris, not a programming error), and calls running on their callers' threads are
 * aborted. One daemon worker per concurrent call; idle workers exit after a minute. Thread-safe.
 */
public final class InterruptibleCalls implements AutoCloseable {
    private final String cloudId;
    private final ExecutorService workers;
    private final Set<Runnable> inPlace = ConcurrentHashMap.newKeySet();

    /**
     * @param cloudId          the cloud id, for exception messages
     * @param threadNamePrefix worker thread names, followed by a number, e.g. {@code hybris-s3-aws-}
     */
    public InterruptibleCalls(String cloudId, String threadNamePrefix) {
        this.cloudId = cloudId;
        AtomicInteger count = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> {
                    Thread t = new Thread(r, threadNamePrefix + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /**
     * Runs {@code task} and returns its result, rethrowing its unchecked exceptions unchanged; a checked exception
     * becomes a {@link TransientCloudException}. If the caller is interrupted the request is abandoned.
     *
     * @param what names the operation for messages, e.g. {@code get of 'a/b#1_c'}
     * @throws TransientCloudException if the calling thread is (or becomes) interrupted, or after {@link #close()}
     */
    public <T> T call(String what, Callable<T> task) {
        return call(what, task, null);
    }

    /**
     * As {@link #call(String, Callable)}, and runs {@code abort} (on the calling thread) when the caller is
     * interrupted while the task runs, to end its I/O. On a thread with an {@link AbortSignal} bound the task runs
     * on the calling thread, and firing the signal runs {@code abort}.
     *
     * @param abort ends the task's blocking I/O, e.g. aborts its HTTP request; null for none
     */
    public <T> T call(String what, Callable<T> task, Runnable abort) {
        if (Thread.currentThread().isInterrupted()) {
            throw new TransientCloudException(cloudId, what + " not started: the calling thread is interrupted");
        }
        AbortSignal signal = abort == null ? null : AbortSignal.current();
        if (signal != null) {
            return callInPlace(signal, what, task, abort);
        }
        Future<T> future;
        try {
            future = workers.submit(task);
        } catch (RejectedExecutionException e) {
            throw new TransientCloudException(cloudId, what + " not started: the store is closed", e);
        }
        try {
            return future.get();
        } catch (InterruptedException e) {
            if (abort != null) {
                abort.run();
            }
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new TransientCloudException(cloudId, what + " interrupted; "
                    + (abort != null ? "its request was aborted" : "the request was abandoned"), e);
        } catch (CancellationException e) {
            throw new TransientCloudException(cloudId, what + " cancelled: the store is closing", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new TransientCloudException(cloudId, what + " failed: " + cause, cause);
        }
    }

    /**
     * Runs {@code task} on the calling thread with {@code abort} registered with {@code signal} (and with this
     * object, so that {@link #close()} aborts it too). A task that fails once the signal fired fails as an
     * interrupted call does on a worker: with a {@link TransientCloudException} and the thread's interrupt flag set.
     */
    private <T> T callInPlace(AbortSignal signal, String what, Callable<T> task, Runnable abort) {
        AbortSignal.Registration registration = signal.onAbort(abort);
        if (registration == null) {
            throw new TransientCloudException(cloudId, what + " not started: its request was cancelled");
        }
        Runnable own = abort::run; // a new object per call, so concurrent calls never share an entry
        inPlace.add(own);
        try {
            if (workers.isShutdown()) {
                throw new TransientCloudException(cloudId, what + " not started: the store is closed");
            }
            return task.call();
        } catch (Exception e) {
            if (signal.isAborted()) {
                Thread.currentThread().interrupt();
                throw new TransientCloudException(cloudId, what + " interrupted; its request was aborted", e);
            }
            if (workers.isShutdown() && !(e instanceof TransientCloudException)) {
                throw new TransientCloudException(cloudId, what + " cancelled: the store is closing", e);
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new TransientCloudException(cloudId, what + " failed: " + e, e);
        } finally {
            inPlace.remove(own);
            registration.close();
        }
    }

    /**
     * Interrupts running calls, aborts those running on their callers' threads, and lets the workers exit; later
     * calls fail. Idempotent.
     */
    @Override
    public void close() {
        workers.shutdownNow();
        for (Runnable abort : inPlace) {
            try {
                abort.run();
            } catch (RuntimeException ignored) {
                // the store is closing; a call that cannot be aborted ends at its own timeout
            }
        }
    }
}
