/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A PUT without a precondition of a value streamed in chunks was overtaken, before its update committed, by a newer
 * version it cannot be ordered just before: a conditional write's, which observed the version the PUT replaced (the
 * PUT ordered between them would break that write's precondition), or a deletion's (docs/protocol.md, PUT step 4).
 * Nothing was committed and the PUT's uploads are deleted. A PUT of a value in memory puts again by itself; a
 * stream cannot be read again, so its PUT fails with this exception: putting the value again is safe.
 * {@link #current()} is the conditional write that overtook it (empty: a deletion).
 */
public class PutOvertakenException extends WriteConflictException {
    private static final long serialVersionUID = 1L;

    public PutOvertakenException(String message, String key, VersionInfo current) {
        super(message, key, current);
    }
}
