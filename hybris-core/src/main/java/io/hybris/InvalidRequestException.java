/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A call was rejected before anything was written: a container, key or value was null, empty, too large
 * or contained a character that cannot round-trip through every cloud and metadata store. The message names
 * the argument, the offending character or size, and how to fix it.
 */
public class InvalidRequestException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public InvalidRequestException(String message) {
        super(message);
    }
}
