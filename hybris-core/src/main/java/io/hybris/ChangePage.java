/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.List;
import java.util.Objects;

/**
 * A page of a container's change feed ({@link Hybris#changes}).
 *
 * @param changes the changes, in commit order
 * @param cursor  where the next page starts
 * @param hasMore whether more changes may follow right now (read on from {@code cursor}); false when the page
 *                reached the newest commit
 */
public record ChangePage(List<Change> changes, ChangeCursor cursor, boolean hasMore) {
    public ChangePage {
        changes = List.copyOf(changes);
        Objects.requireNonNull(cursor, "cursor");
    }
}
