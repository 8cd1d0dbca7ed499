/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.Optional;

/**
 * Per-call options of a DELETE: delete only if the key's current version is the given one, checked first and
 * again atomically by the conditional update that commits the deletion. A deletion whose precondition fails
 * throws {@link PreconditionFailedException} carrying the current version. Immutable.
 */
public final class DeleteOptions {
    private static final DeleteOptions NONE = new DeleteOptions(null);

    private final String ifMatch;

    private DeleteOptions(String ifMatch) {
        this.ifMatch = ifMatch;
    }

    /** No precondition (the default): deleting a key with no value is a no-op. */
    public static DeleteOptions none() {
        return NONE;
    }

    /**
     * Delete only if the key's current version is {@code version} ({@link VersionInfo#version()}); a key with no
     * value fails the precondition.
     *
     * @throws InvalidRequestException if {@code version} is null or empty
     */
    public static DeleteOptions ifMatch(String version) {
        if (version == null || version.isEmpty()) {
            throw new InvalidRequestException("ifMatch needs a version (VersionInfo.version()), got "
                    + (version == null ? "null" : "an empty string"));
        }
        return new DeleteOptions(version);
    }

    /** The version the deletion requires, if any. */
    public Optional<String> ifMatchVersion() {
        return Optional.ofNullable(ifMatch);
    }

    @Override
    public String toString() {
        return ifMatch != null ? "ifMatch(" + ifMatch + ")" : "none()";
    }
}
