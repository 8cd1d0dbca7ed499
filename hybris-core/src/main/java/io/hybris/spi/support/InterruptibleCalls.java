/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
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
 * After {@link #close()}, calls fail with a {@link TransientCloudException} saying the store is closed (a closed
 * store is a failed cloud to Hybris, not a programming error). One daemon worker per concurrent call; idle workers
 * exit after a minute. Thread-safe.
 */
public final class InterruptibleCalls implements AutoCloseable {
    private final String cloudId;
    private final ExecutorService workers;

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
     * interrupted while the task runs, to end its I/O.
     *
     * @param abort ends the task's blocking I/O, e.g. aborts its HTTP request; null for none
     */
    public <T> T call(String what, Callable<T> task, Runnable abort) {
        if (Thread.currentThread().isInterrupted()) {
            throw new TransientCloudException(cloudId, what + " not started: the calling thread is interrupted");
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

    /** Interrupts running calls and lets the workers exit; later calls fail. Idempotent. */
    @Override
    public void close() {
        workers.shutdownNow();
    }
}
