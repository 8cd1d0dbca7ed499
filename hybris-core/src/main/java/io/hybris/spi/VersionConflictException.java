/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/**
 * A conditional update found a version other than the expected one (or the key already existed when
 * {@link MetadataVersion#ABSENT} was expected). The request that found it wrote nothing. Checked, because the
 * protocol must decide what a conflict means (paper §4.1): re-read and retry, or accept that a newer write won.
 *
 * <p>A store that re-sends an update after losing the answer to an earlier send (a dropped connection, a request
 * timeout) can see a conflict caused by that earlier send, which did apply. It says so with
 * {@link #mayHaveApplied()}: the protocol then recognises its own update by its timestamp, and when a newer write
 * has replaced every key since, reports the write's outcome as unknown instead of as failed.
 */
public class VersionConflictException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean mayHaveApplied;

    /** A conflict found by the update's only send: nothing was written. */
    public VersionConflictException(String message) {
        this(message, null, false);
    }

    /** A conflict found by the update's only send: nothing was written. */
    public VersionConflictException(String message, Throwable cause) {
        this(message, cause, false);
    }

    /**
     * A conflict.
     *
     * @param mayHaveApplied true if the conflict answered a re-sent request and an earlier send of the same update,
     *                       whose answer was lost, may have applied it
     */
    public VersionConflictException(String message, Throwable cause, boolean mayHaveApplied) {
        super(message, cause);
        this.mayHaveApplied = mayHaveApplied;
    }

    /**
     * Whether an earlier send of this update, whose answer was lost, may have applied it (the store re-sent the
     * update and this conflict may be the earlier send's own doing). False: the update was not applied.
     */
    public boolean mayHaveApplied() {
        return mayHaveApplied;
    }
}
