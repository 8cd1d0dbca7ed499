/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Objects;

/**
 * The metadata store key of one Hybris value: a container and a key, both already validated by Hybris.
 *
 * @param container the container name ({@code [a-z0-9][a-z0-9-]*})
 * @param key       the user key, any validated string; stores encode it with {@link KeyEncoding}
 */
public record MetadataKey(String container, String key) {
    public MetadataKey {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(key, "key");
    }

    // written out (not the record's generated ones): every GET hashes and compares a key, and the generated methods
    // go through method handles the JIT did not always inline there (seen in a profile of the GET path)
    @Override
    public boolean equals(Object o) {
        return o instanceof MetadataKey other && container.equals(other.container) && key.equals(other.key);
    }

    @Override
    public int hashCode() {
        return 31 * container.hashCode() + key.hashCode();
    }

    @Override
    public String toString() {
        return container + "/" + key;
    }
}
