/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/**
 * A conditional update found a version other than the expected one (or the key already existed when
 * {@link MetadataVersion#ABSENT} was expected). Nothing was written. Checked, because the protocol must decide
 * what a conflict means (paper §4.1): re-read and retry, or accept that a newer write won.
 */
public class VersionConflictException extends Exception {
    private static final long serialVersionUID = 1L;

    public VersionConflictException(String message) {
        super(message);
    }

    public VersionConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
