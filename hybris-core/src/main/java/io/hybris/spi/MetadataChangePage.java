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
 * @param end              no commit in the log had a sequence number above this one when the page was read
 *                         ({@code 0}: no log yet; {@link Long#MAX_VALUE}: the store cannot tell), so a cursor
 *                         beyond {@code end + 1} is not one of this log's: another container's, or one taken before
 *                         the store was restored or the container recreated
 */
public record MetadataChangePage(List<MetadataChange> changes, long compactedThrough, boolean hasMore, long end) {
    public MetadataChangePage {
        changes = List.copyOf(changes);
        if (compactedThrough < 0) {
            throw new IllegalArgumentException("compactedThrough must not be negative: " + compactedThrough);
        }
        if (end < 0) {
            throw new IllegalArgumentException("end must not be negative: " + end);
        }
    }

    /** A page of a store that cannot tell where its log ends ({@code end} unknown). */
    public MetadataChangePage(List<MetadataChange> changes, long compactedThrough, boolean hasMore) {
        this(changes, compactedThrough, hasMore, Long.MAX_VALUE);
    }
}
