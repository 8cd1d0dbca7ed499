/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Objects;

/**
 * One listed metadata entry.
 *
 * @param key     the user key (decoded)
 * @param value   the stored bytes
 * @param version the version
 */
public record MetadataEntry(String key, byte[] value, MetadataVersion version) {
    public MetadataEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(version, "version");
    }
}
