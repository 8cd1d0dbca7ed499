/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/**
 * A store-assigned version of one key's metadata (ZooKeeper znode version, Consul ModifyIndex, ...), opaque to
 * Hybris: it is only ever handed back to the store that produced it as the expected version of an update.
 *
 * @param value the store's version number
 */
public record MetadataVersion(long value) {

    /** The expected version meaning "the key must not exist yet". */
    public static final MetadataVersion ABSENT = new MetadataVersion(Long.MIN_VALUE);

    /** Whether this is {@link #ABSENT}. */
    public boolean isAbsent() {
        return value == Long.MIN_VALUE;
    }

    @Override
    public String toString() {
        return isAbsent() ? "ABSENT" : Long.toString(value);
    }
}
