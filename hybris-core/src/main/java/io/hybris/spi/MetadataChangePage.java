/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.List;

/**
 * A page of a container's change log ({@link MetadataStore#changes}).
 *
 * @param changes          commits in ascending sequence order
 * @param compactedThrough every commit with a sequence number up to this one may have been removed from the log by
 *                         compaction (0: nothing was ever removed); read after the commits, so a commit missing
 *                         from {@code changes} because compaction removed it meanwhile is covered by it
 * @param hasMore          whether commits after the last one of the page may exist
 */
public record MetadataChangePage(List<MetadataChange> changes, long compactedThrough, boolean hasMore) {
    public MetadataChangePage {
        changes = List.copyOf(changes);
        if (compactedThrough < 0) {
            throw new IllegalArgumentException("compactedThrough must not be negative: " + compactedThrough);
        }
    }
}
