/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.Objects;

/**
 * One change in a container's change feed: a key got a new version, or was deleted.
 *
 * @param key     the key
 * @param version the version the change committed; {@link VersionInfo#isDeletion()} for a deletion
 * @param cursor  where to resume to receive the changes after this one (save it once the change is applied)
 */
public record Change(String key, VersionInfo version, ChangeCursor cursor) {
    public Change {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(cursor, "cursor");
    }

    /** Whether the change deleted the key. */
    public boolean isDeletion() {
        return version.isDeletion();
    }
}
