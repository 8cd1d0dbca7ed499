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
     * @param sealed       the bytes to store (ciphertext when encrypted), or null for a deletion (a tombstone)
     * @param cacheCounter the bounded-staleness counter to record (see {@link CacheLayer#counterAfter})
     */
    record NewVersion(MetadataKey key, Current replaced, Timestamp timestamp, Sealer.Sealed sealed,
                      int cacheCounter) {
        NewVersion withCacheCounter(int counter) {
            return new NewVersion(key, replaced, timestamp, sealed, counter);
        }
    }

    /** Writes one version and commits it; returns the committed metadata. */
    Metadata write(NewVersion version, Deadline d);

    /**
     * Writes versions of several keys of {@code container} and commits them atomically; returns the committed
     * metadata by key.
     */
    Map<String, Metadata> writeAll(String container, List<NewVersion> versions, Deadline d);
}
