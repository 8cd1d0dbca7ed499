/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * The result of {@link MetadataStore#readAndWatch}: the value read and the subscription to its next change.
 *
 * @param current      the value at the time of the read; empty if the key does not exist
 * @param subscription cancels the watch
 */
public record WatchedRead(Optional<VersionedValue> current, Subscription subscription) {
    public WatchedRead {
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(subscription, "subscription");
    }
}
