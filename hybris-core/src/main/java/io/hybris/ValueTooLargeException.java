/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A value is larger than this client accepts: above {@code hybris.value.max-size} (default 5 TiB), or, for the
 * {@code byte[]} calls, above what one Java array holds (about 2 GiB; use the streaming calls). Nothing was
 * committed; the message names the size, the limit and how to raise it.
 */
public class ValueTooLargeException extends InvalidRequestException {
    private static final long serialVersionUID = 1L;

    private final long limit;

    public ValueTooLargeException(String message, long limit) {
        super(message);
        this.limit = limit;
    }

    /** The limit the value exceeded, in bytes. */
    public long limit() {
        return limit;
    }
}
