/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A conditional write ({@link PutOptions#ifMatch}, {@link PutOptions#ifAbsent}, {@link DeleteOptions#ifMatch},
 * or a precondition of a transaction) found another version current, either before it uploaded anything or at
 * its commit, when a concurrent write had won. Nothing was committed, and what it had uploaded is deleted.
 * {@link #current()} is the version that is current instead (empty: the key has no value); {@link #key()} the key
 * whose precondition failed.
 */
public class PreconditionFailedException extends WriteConflictException {
    private static final long serialVersionUID = 1L;

    public PreconditionFailedException(String message, String key, VersionInfo current) {
        super(message, key, current);
    }
}
