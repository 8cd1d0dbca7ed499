/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

/** A stored value is not a well-formed record of {@link RecordCodec}'s format; the message says what is wrong. */
public final class RecordFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An exception with the reason as its message. */
    public RecordFormatException(String message) {
        super(message);
    }
}
