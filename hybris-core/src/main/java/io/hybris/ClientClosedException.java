/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A call was made on a {@link Hybris} client after {@link Hybris#close()}, or the client was closed while the call
 * was in flight. In the second case the outcome of a write is unknown (it may or may not have taken effect; its
 * copies are left for the orphan sweep) and the cause, if any, is what the interrupted call saw.
 */
public class ClientClosedException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public ClientClosedException(String message) {
        super(message);
    }

    public ClientClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
