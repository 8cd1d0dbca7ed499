/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A running subscription to a container's change feed ({@link Hybris#subscribe}). Thread-safe.
 */
public interface ChangeSubscription extends AutoCloseable {

    /**
     * Where the subscription would resume: after the last change its listener returned from. Save it to
     * subscribe again after a restart without missing a change.
     */
    ChangeCursor cursor();

    /** Whether the subscription still delivers changes (not closed, not stopped). */
    boolean isActive();

    /**
     * Stops the subscription: no change is delivered after this returns, except by a listener call already in
     * progress, which this waits for (up to 5 s) unless called from the listener itself. Idempotent.
     */
    @Override
    void close();
}
