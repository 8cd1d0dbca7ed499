/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A transactional put ({@link Hybris#tput}) was aborted because a concurrent write with a newer timestamp
 * committed to one of its keys first. None of the transaction's values became visible; its uploads are
 * deleted. Retrying the transaction is safe.
 */
public class TransactionAbortedException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public TransactionAbortedException(String message) {
        super(message);
    }
}
