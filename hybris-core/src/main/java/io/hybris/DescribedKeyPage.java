/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.List;
import java.util.Optional;

/**
 * One page of a {@link Hybris#listDescribed(String, String, String, int)} result: the same keys, order and cursor
 * as {@link Hybris#list(String, String, String, int)}, each with its current version.
 *
 * @param keys       the live (not deleted) keys with their versions, in the store's stable order
 * @param nextCursor pass it to the next call (of either method) to continue; empty on the last page
 */
public record DescribedKeyPage(List<DescribedKey> keys, Optional<String> nextCursor) {
    public DescribedKeyPage {
        keys = List.copyOf(keys);
    }
}
