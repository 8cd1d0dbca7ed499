/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Argument checks of {@link MetadataStore#conditionalUpdateAll}, the same in every store. Stateless.
 *
 * <pre>{@code
 * MetadataUpdates.requireDistinctKeys(updates);
 * if (updates.isEmpty()) {
 *     return;
 * }
 * }</pre>
 */
public final class MetadataUpdates {
    private MetadataUpdates() {
    }

    /**
     * Rejects a list that names a key twice, as {@link MetadataStore#conditionalUpdateAll} promises.
     *
     * @throws IllegalArgumentException naming the repeated key
     */
    public static void requireDistinctKeys(List<MetadataUpdate> updates) {
        Set<MetadataKey> seen = new HashSet<>();
        for (MetadataUpdate u : updates) {
            if (!seen.add(u.key())) {
                throw new IllegalArgumentException("duplicate key in atomic update: " + u.key());
            }
        }
    }
}
