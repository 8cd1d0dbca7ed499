/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Objects;

/**
 * One conditional write: store {@code value} under {@code key} if its version is {@code expectedVersion}.
 *
 * @param key             the key
 * @param value           the new value
 * @param expectedVersion the version read before, or {@link MetadataVersion#ABSENT} to create
 */
public record MetadataUpdate(MetadataKey key, byte[] value, MetadataVersion expectedVersion) {
    public MetadataUpdate {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(expectedVersion, "expectedVersion");
    }
}
