/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A streaming put was given an {@code InputStream} that ended before the declared length, or went on after it.
 * Nothing was committed; chunks already uploaded are deleted (any the deletion misses are orphans that the sweep
 * removes after the grace period).
 */
public class ValueLengthMismatchException extends InvalidRequestException {
    private static final long serialVersionUID = 1L;

    private final long declared;
    private final long actual;

    public ValueLengthMismatchException(String message, long declared, long actual) {
        super(message);
        this.declared = declared;
        this.actual = actual;
    }

    /** The length the caller declared. */
    public long declared() {
        return declared;
    }

    /** How many bytes the stream had: its full length if shorter, {@code declared + 1} if longer. */
    public long actual() {
        return actual;
    }
}
