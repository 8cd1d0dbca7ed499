/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.List;
import java.util.Objects;

/**
 * One commit in a container's change log ({@link MetadataStore#changes}): the keys one conditional update or one
 * atomic update wrote, with their new values, under the sequence number the store gave the commit.
 *
 * @param sequence the commit's position in its container's log: positive, and larger for every later commit (not
 *                 necessarily by one)
 * @param updates  the keys the commit wrote, in the order of the update list, and their new values
 */
public record MetadataChange(long sequence, List<Update> updates) {
    public MetadataChange {
        if (sequence <= 0) {
            throw new IllegalArgumentException("a change's sequence number is positive: " + sequence);
        }
        updates = List.copyOf(updates);
    }

    /**
     * One key a commit wrote.
     *
     * @param key   the user key (decoded)
     * @param value the value the commit stored (Hybris's encoded metadata)
     */
    public record Update(String key, byte[] value) {
        public Update {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }
}
