/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.ClientClosedException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisException;
import io.hybris.HybrisListener;
import io.hybris.HybrisListener.MetadataOperation;
import io.hybris.HybrisListener.MetadataOutcome;
import io.hybris.MetadataUnavailableException;
import io.hybris.MetadataStoreException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.WatchedRead;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Every call the protocol makes to the {@link MetadataStore}, bounded by the call's deadline and by
 * {@link #close()}: on the caller's thread when the store bounds its own call time below the time left, else on
 * the metadata executor with the caller waiting. A write whose answer does not arrive (deadline, interrupt,
 * close) has an unknown outcome, and the exception says so. Failures surface as {@link HybrisException}
 * subclasses; a version conflict of a conditional update is the one checked outcome. Thread-safe.
 */
final class MetadataCalls {
    private final MetadataStore store;
    private final ExecutorService executor;
    private final Clock clock;
    /** The store's own bound on a call's duration in nanoseconds, or -1 if it has none. */
    private final long callBoundNanos;
    /** Completed by {@link #close()}: calls waiting on the store stop waiting. */
    private final CompletableFuture<Void> closing = new CompletableFuture<>();
    private final HybrisListener listener;
    private final RecentReads recent = new RecentReads();

    MetadataCalls(MetadataStore store, ExecutorService executor, Clock clock, HybrisListener listener) {
        this.store = store;
        this.executor = executor;
        this.clock = clock;
        this.listener = listener;
        this.callBoundNanos = store.callTimeBound().map(Duration::toNanos).orElse(-1L);
    }

    /** Calls waiting for the store stop waiting and fail with {@link ClientClosedException}. */
    void close() {
        closing.complete(null);
    }

    /** Throws {@link ClientClosedException} once the client closed: for work done between calls (a scrub's keys). */
    void ensureOpen(String what) {
        if (closing.isDone()) {
            throw new ClientClosedException(what + " stopped: the client was closed");
        }
    }

    /** The store, as its {@link MetadataStore#describe()} names it. */
    String describe() {
        return store.describe();
    }

    /** The most keys one atomic update of this store may change. */
    int maxAtomicUpdates() {
        return store.maxAtomicUpdates();
    }

    /** Reads and decodes the metadata of {@code mk}. */
    Current read(MetadataKey mk, Deadline d) {
        long readAt = clock.millis();
        Current cur = decode(unchecked(d, MetadataOperation.READ, new ReadOf(mk), true, () -> store.read(mk)), readAt);
        recent.found(mk, cur);
        return cur;
    }

    /**
     * The version a write with precondition {@code ifMatch} (null: none) orders itself after: what the latest read
     * of {@code mk} in this client found if that is the version {@code ifMatch} names, with no store call (safe for
     * a conditional update only: see {@link RecentReads}); else {@link #read}.
     */
    Current readUnlessJustRead(MetadataKey mk, String ifMatch, Deadline d) {
        Current seen = ifMatch == null ? null : recent.withVersion(mk, ifMatch);
        return seen != null ? seen : read(mk, d);
    }

    /**
     * The live version the latest read or commit of {@code mk} in this client found, or null: a guess, to be
     * checked against a metadata read ({@link SpeculativeRead}).
     */
    Metadata lastSeen(MetadataKey mk) {
        return recent.latest(mk);
    }

    /** Notes that this client's conditional update of {@code mk} to {@code meta} committed. */
    void committed(MetadataKey mk, Metadata meta) {
        recent.committed(mk, meta);
    }

    /** Reads {@code mk} and watches it: {@code changed} runs (once) when its metadata changes. */
    Watched readAndWatch(MetadataKey mk, Runnable changed, Deadline d) {
        long readAt = clock.millis();
        WatchedRead watched = unchecked(d, MetadataOperation.WATCH, new ReadOf(mk), true,
                () -> store.readAndWatch(mk, changed));
        Current cur = decode(watched.current(), readAt);
        recent.found(mk, cur);
        return new Watched(cur, watched);
    }

    /** A decoded read and its subscription, which the caller cancels. */
    record Watched(Current current, WatchedRead read) {
        void cancel() {
            read.subscription().cancel();
        }
    }

    /** The conditional update of one key. */
    void conditionalUpdate(MetadataUpdate update, Deadline d, String what) throws VersionConflictException {
        recent.changing(update.key());
        call(d, MetadataOperation.UPDATE, what, true, true, () -> {
            store.conditionalUpdate(update);
            return null;
        });
    }

    /** The atomic conditional update of several keys. */
    void conditionalUpdateAll(List<MetadataUpdate> updates, Deadline d, String what) throws VersionConflictException {
        updates.forEach(u -> recent.changing(u.key()));
        call(d, MetadataOperation.TXN, what, true, true, () -> {
            store.conditionalUpdateAll(updates);
            return null;
        });
    }

    /** A listing: several store requests, so not covered by the store's call-time bound; always off-thread. */
    <T> T listing(Deadline d, String what, Callable<T> call) {
        return unchecked(d, MetadataOperation.LIST, what, false, call);
    }

    /**
     * What a read is, for its failure messages ({@code what} below is any object whose {@code toString()} says what
     * the call was): rendered only when a message needs it, not on every read.
     */
    private record ReadOf(MetadataKey key) {
        @Override
        public String toString() {
            return "read of " + key;
        }
    }

    static Current decode(Optional<VersionedValue> v, long readAt) {
        return v.map(x -> new Current(MetadataCodec.decode(x.value()), x.version(), readAt))
                .orElse(new Current(null, MetadataVersion.ABSENT, readAt));
    }

    private <T> T unchecked(Deadline d, MetadataOperation op, Object what, boolean singleCall, Callable<T> call) {
        try {
            return call(d, op, what, false, singleCall, call);
        } catch (VersionConflictException e) {
            throw new MetadataStoreException(what + ": unexpected version conflict", e);
        }
    }

    private <T> T call(Deadline d, MetadataOperation op, Object what, boolean isWrite, boolean singleCall,
                       Callable<T> call) throws VersionConflictException {
        if (d.expired()) {
            throw new DeadlineExceededException(what + " not attempted: the call's deadline of " + d.budget()
                    + " has passed");
        }
        if (closing.isDone()) { // also for a call made in place, which would not wait for the closing signal
            throw new ClientClosedException(what + " not attempted: the client was closed");
        }
        long t0 = System.nanoTime();
        MetadataOutcome outcome = MetadataOutcome.ERROR;
        try {
            T result = attempt(d, what, isWrite, singleCall, call);
            outcome = MetadataOutcome.OK;
            return result;
        } catch (VersionConflictException e) {
            outcome = MetadataOutcome.CONFLICT;
            throw e;
        } catch (RuntimeException e) {
            outcome = outcomeOf(e);
            throw e;
        } finally {
            listener.metadataCall(op, outcome, Duration.ofNanos(System.nanoTime() - t0));
        }
    }

    private static MetadataOutcome outcomeOf(RuntimeException e) {
        if (e instanceof DeadlineExceededException) {
            return MetadataOutcome.TIMEOUT;
        } else if (e instanceof CallInterruptedException) {
            return MetadataOutcome.INTERRUPTED;
        } else if (e instanceof ClientClosedException) {
            return MetadataOutcome.CLOSED;
        } else if (e instanceof MetadataUnavailableException) {
            return MetadataOutcome.UNAVAILABLE;
        }
        return MetadataOutcome.ERROR;
    }

    private <T> T attempt(Deadline d, Object what, boolean isWrite, boolean singleCall, Callable<T> call)
            throws VersionConflictException {
        if (singleCall && callBoundNanos >= 0 && d.remainingNanos() > callBoundNanos) {
            return callInline(what, isWrite, call);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        Future<?> future = executor.submit(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            CompletableFuture.anyOf(result, closing).get(d.remainingNanos(), TimeUnit.NANOSECONDS);
            if (!result.isDone()) { // the client is closing: do not wait for a store that may not answer
                future.cancel(true);
                throw new ClientClosedException(what + " abandoned: the client was closed"
                        + (isWrite ? "; the write's outcome is unknown" : ""));
            }
            return result.get();
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new DeadlineExceededException(what + " on " + store.describe() + " did not complete within "
                    + d.budget() + (isWrite ? "; the write's outcome is unknown" : ""));
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new CallInterruptedException(what + " interrupted" + (isWrite
                    ? "; the request may have reached " + store.describe() + ", so the write's outcome is unknown"
                    : ""), isWrite, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof VersionConflictException v) {
                throw v;
            }
            if (cause instanceof HybrisException h) {
                throw h;
            }
            throw new MetadataStoreException(what + " on " + store.describe() + " failed: " + cause, cause);
        }
    }

    /**
     * Runs a call on the caller's thread: the store bounds its own call time and the deadline leaves more than
     * that bound, so waiting on another thread would only add two hand-offs. A failure caused by an interrupt of
     * the caller, or by {@link #close()} (which closes an owned store under the call), is reported as it is off
     * the caller's thread: {@link CallInterruptedException} or {@link ClientClosedException}, whatever the store
     * made of it.
     */
    private <T> T callInline(Object what, boolean isWrite, Callable<T> call) throws VersionConflictException {
        try {
            return call.call();
        } catch (VersionConflictException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException(what + " interrupted" + (isWrite ? "; the write's outcome is unknown"
                    : ""), isWrite, e);
        } catch (Exception e) {
            throw inlineFailure(what, isWrite, e);
        }
    }

    private HybrisException inlineFailure(Object what, boolean isWrite, Exception e) {
        if (e instanceof CallInterruptedException || e instanceof ClientClosedException) {
            return (HybrisException) e;
        }
        if (Thread.currentThread().isInterrupted()) { // the store mapped an interrupt and kept the flag
            return new CallInterruptedException(what + " interrupted" + (isWrite
                    ? "; the request may have reached " + store.describe() + ", so the write's outcome is unknown"
                    : ""), isWrite, e);
        }
        if (closing.isDone()) {
            return new ClientClosedException(what + " abandoned: the client was closed"
                    + (isWrite ? "; the write's outcome is unknown" : ""), e);
        }
        if (e instanceof HybrisException h) {
            return h;
        }
        return new MetadataStoreException(what + " on " + store.describe() + " failed: " + e, e);
    }
}
