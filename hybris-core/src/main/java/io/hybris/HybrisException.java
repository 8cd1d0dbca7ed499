/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * Root of every exception Hybris throws. Unchecked: callers catch the subclasses they can act on
 * ({@link InvalidRequestException}, {@link HybrisConfigurationException}, {@link MetadataStoreException},
 * {@link NotEnoughCloudsException}, {@link DeadlineExceededException}, {@link TransactionAbortedException},
 * {@link ClientClosedException}, {@link CallInterruptedException}). Nothing else escapes a call: a failure of a
 * provider or of Hybris itself arrives as a plain {@code HybrisException} with the original as its cause.
 */
public class HybrisException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public HybrisException(String message) {
        super(message);
    }

    public HybrisException(String message, Throwable cause) {
        super(message, cause);
    }
}
