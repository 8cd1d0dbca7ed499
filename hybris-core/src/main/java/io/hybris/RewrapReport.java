/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The result of {@link Hybris#rewrapDataKeys()} (KEK rotation).
 *
 * @param examined     metadata entries looked at, over all containers
 * @param rewrapped    entries whose data key was re-wrapped under the current KEK
 * @param alreadyCurrent entries already under the current KEK (left alone; a re-run resumes a rotation)
 * @param notEncrypted tombstones and plaintext values (nothing to re-wrap)
 * @param unreadable   entries whose data key this client could not unwrap (a KEK it does not have, a damaged
 *                     custody record): left as they are, and the rotation is not done while there are any — do not
 *                     drop the old KEK
 * @param unreadableKeys the first 100 of those, as {@code container/key}
 */
public record RewrapReport(int examined, int rewrapped, int alreadyCurrent, int notEncrypted, int unreadable,
                           java.util.List<String> unreadableKeys) {
    public RewrapReport {
        unreadableKeys = java.util.List.copyOf(unreadableKeys);
    }

    /** A report without unreadable entries. */
    public RewrapReport(int examined, int rewrapped, int alreadyCurrent, int notEncrypted) {
        this(examined, rewrapped, alreadyCurrent, notEncrypted, 0, java.util.List.of());
    }
}
