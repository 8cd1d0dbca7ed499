/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.Optional;

/**
 * A conditional write ({@link PutOptions#ifMatch}, {@link PutOptions#ifAbsent}, {@link DeleteOptions#ifMatch},
 * or a precondition of a transaction) found another version current, either before it uploaded anything or at
 * its commit, when a concurrent write had won. Nothing was committed, and what it had uploaded is deleted.
 * {@link #current()} is the version that is current instead (empty: the key has no value).
 */
public class PreconditionFailedException extends HybrisException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final transient VersionInfo current;

    public PreconditionFailedException(String message, String key, VersionInfo current) {
        super(message);
        this.key = key;
        this.current = current;
    }

    /** The key whose precondition failed. */
    public String key() {
        return key;
    }

    /** The key's current version when the precondition was checked; empty if it has no value. */
    public Optional<VersionInfo> current() {
        return Optional.ofNullable(current);
    }
}
