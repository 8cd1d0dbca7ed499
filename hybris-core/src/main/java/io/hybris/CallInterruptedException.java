/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The calling thread was interrupted (for example by {@code Future.cancel(true)} or
 * {@code ExecutorService.shutdownNow()}) while a call was in flight; the thread's interrupt flag is set again
 * when this is thrown. The outcome of a write that fails with this exception is unknown when
 * {@link #outcomeUnknown()} says so: its metadata update may have been sent and may still commit. Hybris never
 * deletes the copies of such a write; if it did not commit, the orphan sweep removes them after
 * {@code hybris.gc.grace}.
 */
public class CallInterruptedException extends HybrisException {
    private static final long serialVersionUID = 1L;

    private final boolean outcomeUnknown;

    public CallInterruptedException(String message, boolean outcomeUnknown, Throwable cause) {
        super(message, cause);
        this.outcomeUnknown = outcomeUnknown;
    }

    /** Whether a write's metadata update may have been sent (so it may have taken effect). */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }
}
