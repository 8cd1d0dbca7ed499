/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.List;
import java.util.Optional;

/**
 * One page of a {@link Hybris#list(String, String, String, int)} result.
 *
 * @param keys       the keys of live (not deleted) values, in the store's stable order
 * @param nextCursor pass it to the next call to continue; empty on the last page
 */
public record KeyPage(List<String> keys, Optional<String> nextCursor) {
    public KeyPage {
        keys = List.copyOf(keys);
    }
}
