/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.io.IOException;

/**
 * Reading a {@link ValueStream} failed: the {@link #getCause() cause} is the {@link HybrisException} a call would
 * have thrown (for example {@link DeadlineExceededException} when no chunk arrived within the idle timeout,
 * {@link ClientClosedException}, {@link CallInterruptedException}, or {@link ConcurrentOverwriteException} when
 * the value was overwritten and its chunks collected while it was read). A stream never returns bytes that failed
 * their hash check, nor bytes of two versions.
 */
public class ValueStreamException extends IOException {
    private static final long serialVersionUID = 1L;

    public ValueStreamException(String message, HybrisException cause) {
        super(message, cause);
    }

    @Override
    public synchronized HybrisException getCause() {
        return (HybrisException) super.getCause();
    }
}
