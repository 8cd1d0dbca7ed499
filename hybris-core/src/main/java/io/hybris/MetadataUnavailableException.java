/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The metadata store could not be reached (or lost its session/leader) within the time allowed. The outcome
 * of a write that fails with this exception is unknown: it may or may not have taken effect.
 */
public class MetadataUnavailableException extends MetadataStoreException {
    private static final long serialVersionUID = 1L;

    public MetadataUnavailableException(String message) {
        super(message);
    }

    public MetadataUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
