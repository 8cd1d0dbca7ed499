/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * Receives a subscription's changes ({@link Hybris#subscribe}), one at a time, in commit order, on the
 * subscription's own thread.
 */
@FunctionalInterface
public interface ChangeListener {

    /**
     * Applies one change. If it throws, the subscription logs the exception and delivers the same change again
     * after a pause (growing up to 5 s) until it returns: a change is never skipped.
     */
    void onChange(Change change) throws Exception;

    /**
     * Called once when the subscription ends on its own: its cursor was compacted away
     * ({@link ChangeCursorExpiredException}: list the container to resync, then subscribe from
     * {@link Hybris#latestCursor}), or the client was closed ({@link ClientClosedException}). Not called when the
     * application closes the subscription. Runs on the subscription's thread, or on the thread closing the client
     * once a call of {@link #onChange} in progress returned (the close waits up to 5 s for it). What it throws is
     * logged. Does nothing by default.
     */
    default void onStopped(HybrisException cause) {
    }
}
