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

    @Override
    public String toString() {
        return container + "/" + key;
    }
}
