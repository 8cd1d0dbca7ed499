/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.MetadataKey;

import java.util.List;
import java.util.Map;

/**
 * The write path of the protocol after it has ordered a write (read the current version, chosen the timestamp):
 * make the new versions durable on clouds and visible in metadata. {@link VersionPath} is the path itself;
 * {@link CachingPath} is the value-cache step in front of it.
 */
interface WritePath {
    /**
     * A new version of one key, ordered after {@code replaced}.
     *
     * @param sealed       the bytes to store whole (ciphertext when encrypted), or null
     * @param chunked      the value to store in chunks, or null; with {@code sealed} null too, a deletion (a
     *                     tombstone)
     * @param cacheCounter the bounded-staleness counter to record (see {@link CacheLayer#counterAfter})
     * @param required     the write's precondition, or null for none
     * @param userMetadata the version's application metadata (empty: none)
     */
    record NewVersion(MetadataKey key, Current replaced, Timestamp timestamp, Sealer.Sealed sealed,
                      ChunkedValue chunked, int cacheCounter, Preconditions required,
                      java.util.Map<String, String> userMetadata) {
        NewVersion withCacheCounter(int counter) {
            return new NewVersion(key, replaced, timestamp, sealed, chunked, counter, required, userMetadata);
        }

        /** Whether this version records a deletion. */
        boolean isTombstone() {
            return sealed == null && chunked == null;
        }

        /** The bytes stored under the version's name: the value, or a chunked value's manifest once stored. */
        byte[] stored() {
            return sealed != null ? sealed.stored() : chunked != null ? chunked.manifest() : null;
        }
    }

    /**
     * A value to store in chunks: its source, and, once stored, its manifest; or a value whose chunks and manifest
     * are stored already (uploaded in parts), to commit. Written by one thread.
     */
    final class ChunkedValue {
        private final ValueSource source;
        private final ChunkedWriter.Stored prestored;
        private volatile byte[] manifest;

        ChunkedValue(ValueSource source) {
            this.source = source;
            this.prestored = null;
        }

        /** A value whose chunks and manifest {@code stored} are on the clouds already. */
        ChunkedValue(ChunkedWriter.Stored stored) {
            this.source = null;
            this.prestored = stored;
        }

        ValueSource source() {
            return source;
        }

        /** The stored chunks and manifest of a value uploaded in parts, or null. */
        ChunkedWriter.Stored prestored() {
            return prestored;
        }

        byte[] manifest() {
            return manifest;
        }

        void stored(byte[] manifest) {
            this.manifest = manifest;
        }
    }

    /**
     * Writes one version and commits it; returns the committed metadata, or null for a deletion that found the key
     * deleted meanwhile by another write (a no-op: nothing written).
     */
    Metadata write(NewVersion version, Deadline d);

    /**
     * Writes versions of several keys of {@code container} and commits them atomically; returns the committed
     * metadata by key.
     */
    Map<String, Metadata> writeAll(String container, List<NewVersion> versions, Deadline d);
}
