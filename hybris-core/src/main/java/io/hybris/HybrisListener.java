/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.time.Duration;

/**
 * Receives events from a {@link Hybris} client, for metrics, logging and tests. Every method has an empty
 * default; implementations must be thread-safe and fast (they run on the calling or I/O threads) and must not
 * throw (exceptions are logged and ignored).
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

    /** One cloud operation finished (or was abandoned). */
    default void cloudOperation(String cloudId, CloudOperation operation, String objectKey, Outcome outcome,
                                Duration latency) {
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
}
