/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A call did not finish within its deadline ({@code hybris.deadline}). The message says what was tried;
 * failures of individual clouds are attached with {@link #getSuppressed()}. For a write, the outcome is
 * unknown only if the deadline expired during the metadata commit; the message says so.
 */
public class DeadlineExceededException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public DeadlineExceededException(String message) {
        super(message);
    }
}
