/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/** The exception a failed call of a {@link Hybris} client throws, from what failed inside it. */
final class CallFailures {
    private CallFailures() {
    }

    /**
     * What a failed call throws: always a {@link HybrisException}. A call cut short by {@link Hybris#close()} fails
     * with {@link ClientClosedException} (unless it had already failed definitely: bad input, aborted
     * transaction); one whose thread was interrupted with {@link CallInterruptedException}; anything else that
     * is not a {@code HybrisException} (a provider's or Hybris's own bug) is wrapped, never thrown raw.
     */
    static RuntimeException surfaced(RuntimeException e, boolean clientClosed, String clientId) {
        if (clientClosed && !(e instanceof ClientClosedException) && !(e instanceof InvalidRequestException)
                && !(e instanceof TransactionAbortedException)) {
            return new ClientClosedException("this Hybris client (" + clientId + ") was closed while the"
                    + " call was in flight; the outcome of a write is unknown (its copies are left for the orphan"
                    + " sweep)", e);
        }
        if (e instanceof HybrisException) {
            return e;
        }
        if (Thread.currentThread().isInterrupted()) {
            return new CallInterruptedException("call interrupted; the outcome of a write is unknown", true, e);
        }
        return new HybrisException("call failed unexpectedly: " + e, e);
    }
}
