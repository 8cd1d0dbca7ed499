/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;

import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * Receives events from a {@link Hybris} client, for metrics, logging and tests. Every method has an empty
 * default; implementations must be thread-safe and fast (they run on the calling or I/O threads) and must not
 * throw (exceptions are logged and ignored). Each event is reported once, where it happens; to feed several
 * listeners, combine them with {@link #of(HybrisListener...)}.
 *
 * <p>Newer, richer events call the older ones by default, so a listener written for the older ones keeps
 * working: {@link #cloudRequest} calls {@link #cloudOperation}, and
 * {@link #garbageCollected(String, String, GcCause)} calls {@link #garbageCollected(String, String)}.
 */
public interface HybrisListener {

    /** The kinds of cloud operation Hybris performs. */
    enum CloudOperation { PUT, GET, DELETE, LIST }

    /** The outcome of one cloud operation as Hybris saw it. */
    enum Outcome {
        /** The operation succeeded (for GET: the value matched the hash). */
        OK,
        /** A GET found no object. */
        NOT_FOUND,
        /** A GET returned bytes whose hash did not match the metadata. */
        CORRUPT,
        /** A GET returned more bytes than the metadata recorded; the download was cut off. */
        OVERSIZED,
        /** The cloud reported an error. */
        ERROR,
        /** Hybris stopped waiting because the cloud's timer expired or the answer was no longer needed. */
        ABANDONED
    }

    /**
     * Why a cloud request did not succeed, as far as Hybris can tell ({@link CloudRequest#failureKind()}). A
     * stale cloud has no kind of its own: object names are unique per version, so a stale answer shows up as
     * {@link #NOT_FOUND} (the new object is not visible yet) or {@link #CORRUPT} (an older object's bytes).
     */
    enum FailureKind {
        /** Bytes arrived that do not match the metadata's SHA-256 and size: bit rot, a stale or wrong object, a lie. */
        CORRUPT,
        /** The cloud sent more bytes than the metadata records; the download was cut off. */
        OVERSIZED,
        /** A cloud the metadata lists as holding the object had none (not yet visible, or lost). */
        NOT_FOUND,
        /** The request failed with a timeout in its cause chain (the driver's request or connect timeout). */
        TIMEOUT,
        /** The driver reported a transient failure: outage, refused connection, throttling, server error. */
        UNAVAILABLE,
        /** The driver reported a permanent failure: bad credentials, missing bucket, access denied. */
        REJECTED,
        /** Hybris interrupted the request because its answer was no longer needed or the call ended. */
        CANCELLED,
        /** Any other failure. */
        ERROR
    }

    /**
     * One cloud request as Hybris saw it.
     *
     * @param cloudId   the cloud's id
     * @param operation what was asked
     * @param objectKey the object name (the prefix for a LIST)
     * @param outcome   how it ended; {@link Outcome#ABANDONED} is reported when Hybris stops waiting for a
     *                  request still running, which is then aborted and later ends with its own event: judged as
     *                  usual if the whole answer arrived, else {@link Outcome#ERROR} with failure kind
     *                  {@link FailureKind#CANCELLED}
     * @param latency   from sending to the answer (zero for {@link Outcome#ABANDONED})
     * @param bytes     payload bytes moved: for a PUT the object's bytes once the cloud acknowledged them (0 if it
     *                  failed: how much was sent is unknown), for a GET the bytes that arrived (also when they were
     *                  corrupt, cut off or the download failed midway), 0 for DELETE and LIST
     * @param failure   the exception of a failed request, or null
     */
    record CloudRequest(String cloudId, CloudOperation operation, String objectKey, Outcome outcome,
                        Duration latency, long bytes, Throwable failure) {

        /** Whether the request succeeded ({@link Outcome#OK}). */
        public boolean ok() {
            return outcome == Outcome.OK;
        }

        /**
         * Why the request failed, or null if it succeeded or was abandoned (its real end, if any, is reported
         * separately).
         */
        public FailureKind failureKind() {
            return switch (outcome) {
                case OK, ABANDONED -> null;
                case CORRUPT -> FailureKind.CORRUPT;
                case OVERSIZED -> FailureKind.OVERSIZED;
                case NOT_FOUND -> FailureKind.NOT_FOUND;
                case ERROR -> classify(failure);
            };
        }

        private static FailureKind classify(Throwable failure) {
            if (failure instanceof OversizedObjectException) {
                return FailureKind.OVERSIZED;
            }
            Throwable t = failure;
            for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
                if (t instanceof InterruptedException || t instanceof ClosedByInterruptException
                        || t instanceof CallInterruptedException) {
                    return FailureKind.CANCELLED;
                }
                if (t instanceof TimeoutException || t instanceof DeadlineExceededException
                        || (t instanceof InterruptedIOException && t.getClass() != InterruptedIOException.class)
                        || t.getClass().getSimpleName().contains("Timeout")) {
                    return FailureKind.TIMEOUT; // SocketTimeoutException, HttpTimeoutException, SDK timeouts
                }
                if (t.getClass() == InterruptedIOException.class) {
                    return FailureKind.CANCELLED;
                }
            }
            if (failure instanceof TransientCloudException) {
                return FailureKind.UNAVAILABLE;
            }
            if (failure instanceof PermanentCloudException) {
                return FailureKind.REJECTED;
            }
            return FailureKind.ERROR;
        }
    }

    /** The client calls whose duration and outcome {@link #operation} reports. */
    enum Operation {
        PUT, GET, DELETE, TPUT,
        /** One page of keys ({@link Hybris#list(String)} reads every page, one event each). */
        LIST,
        DESCRIBE,
        /** The orphan sweep ({@link Hybris#sweepOrphans()} and the periodic sweep). */
        SWEEP,
        /** One part of an upload in parts ({@link PartUploads#upload}); its completion is reported as a PUT. */
        UPLOAD_PART,
        /**
         * A scrub's or migration's rewrite of a value in chunks (docs/scrub.md), read and written again as a new
         * version: reported as one event, not as a GET and a PUT; ABORTED when a write or deletion superseded it.
         */
        REWRITE
    }

    /** How a client call ended, from what it returned or the exception it threw. */
    enum OperationOutcome {
        /** It succeeded (for GET and DESCRIBE: found a value; for DELETE: deleted one). */
        OK,
        /** GET or DESCRIBE found no value, DELETE had nothing to delete. */
        NOT_FOUND,
        /** {@link PreconditionFailedException}. */
        PRECONDITION_FAILED,
        /**
         * {@link TransactionAbortedException}, {@link ConcurrentOverwriteException} or {@link PutOvertakenException}:
         * a concurrent write or deletion won, nothing was committed (or, for a read, the rest of the value is gone).
         */
        ABORTED,
        /** {@link InvalidRequestException} (including a value too large): nothing was attempted. */
        INVALID,
        /** {@link NotEnoughCloudsException}. */
        NOT_ENOUGH_CLOUDS,
        /** {@link DeadlineExceededException}. */
        DEADLINE_EXCEEDED,
        /** {@link CallInterruptedException}. */
        INTERRUPTED,
        /** {@link ClientClosedException}. */
        CLOSED,
        /** {@link MetadataStoreException} (including unavailable). */
        METADATA_ERROR,
        /** {@link CryptoException}. */
        CRYPTO_ERROR,
        /** Anything else. */
        ERROR;

        /** The outcome of a call that threw {@code failure}. */
        public static OperationOutcome of(Throwable failure) {
            if (failure instanceof PreconditionFailedException) {
                return PRECONDITION_FAILED;
            } else if (failure instanceof TransactionAbortedException
                    || failure instanceof ConcurrentOverwriteException || failure instanceof PutOvertakenException) {
                return ABORTED;
            } else if (failure instanceof InvalidRequestException) {
                return INVALID;
            } else if (failure instanceof NotEnoughCloudsException) {
                return NOT_ENOUGH_CLOUDS;
            } else if (failure instanceof DeadlineExceededException) {
                return DEADLINE_EXCEEDED;
            } else if (failure instanceof CallInterruptedException) {
                return INTERRUPTED;
            } else if (failure instanceof ClientClosedException) {
                return CLOSED;
            } else if (failure instanceof MetadataStoreException) {
                return METADATA_ERROR;
            } else if (failure instanceof CryptoException) {
                return CRYPTO_ERROR;
            }
            return ERROR;
        }
    }

    /** The kinds of metadata-store call Hybris makes. */
    enum MetadataOperation {
        /** A read of one key. */
        READ,
        /** A read of one key that also sets a watch on it (the worst-case GET). */
        WATCH,
        /** A conditional update of one key (PUT, DELETE). */
        UPDATE,
        /** An atomic conditional update of several keys (TPUT). */
        TXN,
        /** A listing (a page of keys, or the containers); may be several requests to the store. */
        LIST
    }

    /** How a metadata-store call ended. */
    enum MetadataOutcome {
        OK,
        /** A conditional update found another version: the commit rule then re-reads (see {@link #casConflict}). */
        CONFLICT,
        /** The call's deadline passed while waiting for the store. */
        TIMEOUT,
        /** The store could not be reached ({@link MetadataUnavailableException}). */
        UNAVAILABLE,
        /** The calling thread was interrupted. */
        INTERRUPTED,
        /** The client was closed while waiting. */
        CLOSED,
        /** Any other failure. */
        ERROR
    }

    /** What the commit rule did after a conditional update lost to another version (paper §4.1). */
    enum ConflictResolution {
        /**
         * An older version had replaced the expected one: the update is retried over it (a CAS retry); or a PUT was
         * overtaken by a newer conditional write or deletion, which it cannot be ordered before: it puts again.
         */
        RETRY,
        /** The update had landed after all (a store that retried a request after a lost answer). */
        OWN_UPDATE,
        /**
         * A newer write had committed: this one is ordered just before it and is complete; or, for a DELETE, another
         * deletion had committed: this one deletes a deleted key, a no-op that writes nothing.
         */
        OVERWRITTEN,
        /** The write's precondition no longer holds: it fails with {@link PreconditionFailedException}. */
        PRECONDITION_FAILED,
        /** A TPUT lost to a newer write on one of its keys: it fails with {@link TransactionAbortedException}. */
        ABORTED,
        /**
         * The store re-sent the update after losing an answer and newer writes have replaced its keys since: whether
         * it landed first cannot be told, so a write that would have failed (precondition, TPUT) has an unknown
         * outcome ({@link MetadataUnavailableException}).
         */
        UNKNOWN
    }

    /** What a value-cache lookup found. */
    enum CacheResult {
        /** A verified entry: no cloud read. */
        HIT,
        /** No entry (absent, too old for the staleness bound, or the cache failed). */
        MISS,
        /** An entry that failed verification (hash, size, key, format, or it could not be decrypted): evicted. */
        REJECTED
    }

    /** Why garbage collection deleted an object. */
    enum GcCause {
        /** A committed version was replaced by a newer one (or a deletion). */
        SUPERSEDED,
        /** A version never committed: a write that failed or lost, or an upload that finished after its race. */
        UNREFERENCED,
        /** The orphan sweep found it unreferenced. */
        SWEEP
    }

    /** One cloud operation finished (or was abandoned). */
    default void cloudOperation(String cloudId, CloudOperation operation, String objectKey, Outcome outcome,
                                Duration latency) {
    }

    /**
     * One cloud request finished (or was abandoned), with the bytes it moved and its exception. The default calls
     * {@link #cloudOperation}.
     */
    default void cloudRequest(CloudRequest request) {
        cloudOperation(request.cloudId(), request.operation(), request.objectKey(), request.outcome(),
                request.latency());
    }

    /** A client call ended (before the client maps a stray exception to {@link HybrisException}). */
    default void operation(Operation operation, String container, OperationOutcome outcome, Duration duration) {
    }

    /** A call to the metadata store ended. Calls not attempted because the deadline had passed are not reported. */
    default void metadataCall(MetadataOperation operation, MetadataOutcome outcome, Duration duration) {
    }

    /** A conditional update of {@code keys} keys in {@code container} met a version conflict, resolved so. */
    default void casConflict(String container, int keys, ConflictResolution resolution) {
    }

    /** A value-cache lookup (only with a cache configured). */
    default void cacheLookup(CacheResult result) {
    }

    /** A worst-case GET restarted because the key's metadata changed while it was reading (paper §3.5). */
    default void getRestarted(String container, String key) {
    }

    /** A GET fell back from the common case to the worst-case protocol (paper §3.5). */
    default void worstCaseGet(String container, String key) {
    }

    /** An old or orphaned version was deleted from a cloud by garbage collection or the sweep. */
    default void garbageCollected(String cloudId, String objectKey) {
    }

    /**
     * An object was deleted from a cloud by garbage collection or the sweep, and why. The default calls
     * {@link #garbageCollected(String, String)}.
     */
    default void garbageCollected(String cloudId, String objectKey, GcCause cause) {
        garbageCollected(cloudId, objectKey);
    }

    /**
     * A cloud's answers failed the hash check {@code failures} times within the quarantine window
     * ({@code hybris.get.quarantine.*}): every read and write asks it last for {@code duration}.
     */
    default void cloudQuarantined(String cloudId, int failures, Duration duration) {
    }

    /**
     * One listener that passes every event to each of {@code listeners} in order; one that throws does not keep
     * the event from the others (its exception is rethrown after all ran, and the client logs it).
     */
    static HybrisListener of(HybrisListener... listeners) {
        return new CompositeListener(java.util.List.of(listeners));
    }
}
