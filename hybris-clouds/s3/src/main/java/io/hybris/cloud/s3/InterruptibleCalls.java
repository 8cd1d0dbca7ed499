package io.hybris.cloud.s3;

import io.hybris.spi.CloudStoreException;
import io.hybris.spi.TransientCloudException;

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
 * Runs each blocking SDK operation on a worker thread while the caller waits interruptibly. Blocking socket I/O
 * ignores {@link Thread#interrupt()}; so when the caller is interrupted (Hybris no longer needs the answer) it
 * aborts the operation's HTTP requests, which closes their connections and ends the worker's I/O, and returns at
 * once with a {@link TransientCloudException}, keeping its interrupt flag. One worker per concurrent caller; idle
 * workers exit after a minute. Thread-safe.
 */
final class InterruptibleCalls implements AutoCloseable {
    /** One blocking operation; it receives its {@link InFlight} to register response streams with. */
    interface Operation<T> {
        T run(InFlight inFlight);
    }

    private final String cloudId;
    private final ExecutorService workers;

    InterruptibleCalls(String cloudId) {
        this.cloudId = cloudId;
        AtomicInteger count = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> {
                    Thread t = new Thread(r, "hybris-s3-" + cloudId + "-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /**
     * Runs {@code operation} and returns its result or rethrows its exception.
     *
     * @param what names the operation for messages, e.g. {@code get of 'a/b#1_c'}
     * @throws TransientCloudException if the calling thread is interrupted before or during the operation
     */
    <T> T call(String what, Operation<T> operation) {
        if (Thread.currentThread().isInterrupted()) {
            throw new TransientCloudException(cloudId, what + " not started: the calling thread is interrupted");
        }
        InFlight inFlight = new InFlight();
        Future<T> future;
        try {
            future = workers.submit(() -> {
                InFlight.Scope scope = inFlight.bind();
                try {
                    return operation.run(inFlight);
                } finally {
                    scope.close();
                }
            });
        } catch (RejectedExecutionException e) {
            throw new TransientCloudException(cloudId, what + " not started: the store is closed", e);
        }
        try {
            return future.get();
        } catch (InterruptedException e) {
            inFlight.abort();
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new TransientCloudException(cloudId, what + " interrupted; its request was aborted", e);
        } catch (CancellationException e) {
            throw new TransientCloudException(cloudId, what + " cancelled: the store is closing", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CloudStoreException c) {
                throw c;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new TransientCloudException(cloudId, what + " failed: " + cause, cause);
        }
    }

    /** Interrupts running workers and lets idle ones exit. */
    @Override
    public void close() {
        workers.shutdownNow();
    }
}
