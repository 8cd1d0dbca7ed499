package io.hybris.cloud.gcs;

import io.hybris.spi.TransientCloudException;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs blocking SDK calls on worker threads so that the calling thread can be interrupted. The SDK's HTTP
 * transport ({@link java.net.HttpURLConnection}) ignores interrupts, but Hybris interrupts a request it no longer
 * needs; here the caller waits on a {@link Future}, and on interrupt it returns at once with a
 * {@link TransientCloudException} and its interrupt flag set, while the worker is interrupted too (reads check
 * the flag between chunks) and its result is discarded. An abandoned request may run on in the background until
 * its next chunk or the request timeout. Thread-safe.
 */
final class InterruptibleCalls implements AutoCloseable {
    private final String cloudId;
    private final ExecutorService workers;

    InterruptibleCalls(String cloudId) {
        this.cloudId = cloudId;
        AtomicInteger n = new AtomicInteger();
        ThreadFactory threads = r -> {
            Thread t = new Thread(r, "hybris-gcs-" + cloudId + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.workers = Executors.newCachedThreadPool(threads);
    }

    /**
     * Runs {@code task} and returns its result, rethrowing its unchecked exceptions unchanged.
     *
     * @param what the operation, for the message if the caller is interrupted
     * @throws TransientCloudException if the calling thread is (or becomes) interrupted; the flag stays set
     * @throws IllegalStateException   after {@link #close()}
     */
    <T> T call(String what, Callable<T> task) {
        if (Thread.currentThread().isInterrupted()) {
            throw new TransientCloudException(cloudId, what + " not started: the calling thread is interrupted");
        }
        Future<T> future;
        try {
            future = workers.submit(task);
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("cloud '" + cloudId + "': the GCS store is closed", e);
        }
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new TransientCloudException(cloudId, what + " interrupted; the request was abandoned", e);
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

    /** Interrupts running calls and stops the workers. */
    @Override
    public void close() {
        workers.shutdownNow();
    }
}
