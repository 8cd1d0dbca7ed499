/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.MetadataVersion;

/**
 * What a metadata read found for one key: the decoded metadata (null if the key never existed), the store's
 * version of the entry (for the conditional update that replaces it), and the wall-clock time, in milliseconds,
 * taken just before the read (the value was current at least as late as that).
 */
record Current(Metadata meta, MetadataVersion version, long readAt) {

    /** The timestamp a new write orders itself after: the current one, or the zero timestamp of an absent key. */
    Timestamp timestamp(String clientId) {
        return meta == null ? new Timestamp(0, clientId) : meta.timestamp();
    }

    /** Whether the key holds a value (exists and is not deleted). */
    boolean live() {
        return meta != null && !meta.isTombstone();
    }
}
