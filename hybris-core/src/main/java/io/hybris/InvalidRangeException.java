/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A ranged read asked for bytes the value does not have: the range starts at or after its end, or the value is
 * empty (HTTP's 416). Nothing was read; {@link #valueLength()} tells the caller what is there.
 */
public class InvalidRangeException extends InvalidRequestException {
    private static final long serialVersionUID = 1L;

    private final long valueLength;

    public InvalidRangeException(String message, long valueLength) {
        super(message);
        this.valueLength = valueLength;
    }

    /** The length of the value the range was resolved against. */
    public long valueLength() {
        return valueLength;
    }
}
