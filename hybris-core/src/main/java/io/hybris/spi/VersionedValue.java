/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Objects;

/**
 * A metadata value together with the version it was read at.
 *
 * @param value   the stored bytes (not copied; do not modify)
 * @param version the version to expect in a conditional update
 */
public record VersionedValue(byte[] value, MetadataVersion version) {
    public VersionedValue {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(version, "version");
    }
}
