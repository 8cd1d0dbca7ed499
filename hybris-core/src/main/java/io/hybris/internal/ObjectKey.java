/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.VersionName;

import java.util.Objects;
import java.util.Optional;

/**
 * The name of one stored version on the clouds, in the format of {@link VersionName}, with the protocol's
 * {@link Timestamp}.
 *
 * @param container the container
 * @param key       the user key
 * @param timestamp the version
 */
public record ObjectKey(String container, String key, Timestamp timestamp) {
    public ObjectKey {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(timestamp, "timestamp");
    }

    /** The full object name under {@code prefix}. */
    public String render(String prefix) {
        return name().render(prefix);
    }

    /** The name of chunk {@code index} of this version (a chunked value) under {@code prefix}. */
    public String renderChunk(String prefix, long index) {
        return name().renderChunk(prefix, index);
    }

    private VersionName name() {
        return new VersionName(container, key, timestamp.sn(), timestamp.clientId(), timestamp.writeId());
    }

    /** The prefix shared by every version of one key, for listing. */
    public static String keyPrefix(String prefix, String container, String key) {
        return VersionName.keyPrefix(prefix, container, key);
    }

    /**
     * Parses the name of a chunk written by {@link #renderChunk} into its version; empty if it is not one (never
     * throws).
     */
    public static Optional<ObjectKey> parseChunk(String prefix, String name) {
        return VersionName.parseChunk(prefix, name).map(c -> new ObjectKey(c.version().container(),
                c.version().key(), new Timestamp(c.version().sn(), c.version().clientId(), c.version().writeId())));
    }

    /** Parses an object name written by {@link #render}; empty if it is not one (never throws). */
    public static Optional<ObjectKey> parse(String prefix, String name) {
        return VersionName.parse(prefix, name).map(v -> new ObjectKey(v.container(), v.key(),
                new Timestamp(v.sn(), v.clientId(), v.writeId())));
    }
}
