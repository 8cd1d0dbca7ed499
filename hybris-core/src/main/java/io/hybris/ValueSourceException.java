/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * Reading the value a streaming put was given failed: its {@code InputStream} (or file) threw the
 * {@link java.io.IOException} that is this exception's cause. Nothing was committed; chunks already uploaded are
 * deleted (any the deletion misses are orphans that the sweep removes after the grace period).
 */
public class ValueSourceException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public ValueSourceException(String message, Throwable cause) {
        super(message, cause);
    }
}
