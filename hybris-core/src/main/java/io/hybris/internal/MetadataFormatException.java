/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.MetadataStoreException;

/** Stored metadata could not be decoded: corrupted, truncated, or written by a newer format version. */
public final class MetadataFormatException extends MetadataStoreException {
    private static final long serialVersionUID = 1L;

    public MetadataFormatException(String message) {
        super(message);
    }
}
