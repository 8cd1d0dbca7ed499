/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A value being streamed was overwritten or deleted, and the chunks still to read are gone from every cloud
 * (garbage-collected). What the stream returned so far was all of the old version; read the key again for the new
 * one.
 */
public class ConcurrentOverwriteException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public ConcurrentOverwriteException(String message) {
        super(message);
    }
}
