/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.List;
import java.util.Objects;

/**
 * A page of a {@link MetadataStore#list} result.
 *
 * @param entries the entries, in encoded-key order
 * @param hasMore whether entries after the last one exist (pass the last key as {@code startAfter})
 */
public record MetadataPage(List<MetadataEntry> entries, boolean hasMore) {
    public MetadataPage {
        entries = List.copyOf(Objects.requireNonNull(entries, "entries"));
    }
}
