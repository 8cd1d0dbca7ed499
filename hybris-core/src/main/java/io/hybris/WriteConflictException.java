/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.Optional;

/**
 * A write of one key lost to another version of that key and committed nothing; what it had uploaded is deleted.
 * {@link #current()} is the version it lost to. The two kinds: {@link PreconditionFailedException} (the write's
 * precondition does not hold: do not simply retry) and {@link PutOvertakenException} (a streamed PUT without a
 * precondition was overtaken: putting again is safe).
 */
public abstract class WriteConflictException extends HybrisException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final transient VersionInfo current;

    protected WriteConflictException(String message, String key, VersionInfo current) {
        super(message);
        this.key = key;
        this.current = current;
    }

    /** The key that was written. */
    public String key() {
        return key;
    }

    /** The version the write lost to; empty if the key has no value (none, or deleted). */
    public Optional<VersionInfo> current() {
        return Optional.ofNullable(current);
    }
}
