/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/**
 * A {@link ValueCache} call failed (server unreachable, timeout, protocol error). Never reaches an application:
 * the engine treats it as a cache miss.
 */
public class ValueCacheException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ValueCacheException(String message) {
        super(message);
    }

    public ValueCacheException(String message, Throwable cause) {
        super(message, cause);
    }
}
