/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.Objects;

/**
 * A live key and the metadata of its current value, as one entry of
 * {@link Hybris#listDescribed(String, String, String, int)}: what {@link Hybris#describe(String, String)} would
 * return for the key when it was listed.
 *
 * @param key     the key
 * @param version its current version (never a deletion)
 */
public record DescribedKey(String key, VersionInfo version) {
    public DescribedKey {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(version, "version");
    }
}
