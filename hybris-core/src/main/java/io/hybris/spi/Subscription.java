/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/** A cancellable watch. Cancelling twice, or after the watch fired, is a no-op. */
@FunctionalInterface
public interface Subscription extends AutoCloseable {

    /** Stops the watch; its callback will not run after this returns (unless already running). */
    void cancel();

    @Override
    default void close() {
        cancel();
    }
}
