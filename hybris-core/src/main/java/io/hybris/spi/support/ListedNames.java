/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The sorted key names of the listings being paged through, kept between pages for a metadata store whose own
 * listing call has no pages (ZooKeeper's {@code getChildren}, Consul's key listing): without them, paging through n
 * keys re-reads every name for every page, O(n&sup2; / page size) names sent. Use with
 * {@link MetadataPaging#pageSorted}.
 *
 * <p>Each kept listing carries the store's <em>version</em> of what was listed (any value with {@code equals}: a
 * ZooKeeper container znode's {@code czxid} and {@code cversion}, a Consul key prefix's index), read before or with
 * the names. The store reads the version again for each page, in the page's read mode, and gets the kept names back
 * only if it is equal: the version must change whenever a key is created under what was listed, so a page never
 * misses a key that a new listing would show. (A store whose version may miss a deletion must skip names whose
 * entry is gone when it reads them.) Keep only listings longer than one page: at most {@value #MAX_LISTINGS} (least
 * recently used dropped first), each for at most {@link #IDLE_NANOS} after its last use. Thread-safe.
 */
public final class ListedNames {
    /** How many listings are kept at most. */
    public static final int MAX_LISTINGS = 8;
    /** How long a listing is kept after its last use, in nanoseconds (one minute). */
    public static final long IDLE_NANOS = 60_000_000_000L;

    private record Listed(Object version, List<String> sortedNames, long usedAt) {
    }

    private final Map<String, Listed> byListing = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Listed> eldest) {
            return size() > MAX_LISTINGS;
        }
    };

    /** Whether names of {@code listing} (the store's name for what it lists, such as a path) are kept. */
    public synchronized boolean holds(String listing) {
        return byListing.containsKey(listing);
    }

    /**
     * The kept names of {@code listing} if {@code version} (read now) equals the one they were listed at and they
     * were used within {@link #IDLE_NANOS}; else null, and whatever was kept is dropped.
     */
    public synchronized List<String> current(String listing, Object version, long nowNanos) {
        Listed listed = byListing.get(listing);
        if (listed == null) {
            return null;
        }
        if (!listed.version().equals(version) || nowNanos - listed.usedAt() > IDLE_NANOS) {
            byListing.remove(listing);
            return null;
        }
        byListing.put(listing, new Listed(listed.version(), listed.sortedNames(), nowNanos));
        return listed.sortedNames();
    }

    /** Keeps {@code sortedNames}, just listed of {@code listing} at {@code version}. */
    public synchronized void keep(String listing, Object version, List<String> sortedNames, long nowNanos) {
        byListing.put(listing, new Listed(Objects.requireNonNull(version, "version"), List.copyOf(sortedNames),
                nowNanos));
    }

    /** Drops whatever is kept of {@code listing}. */
    public synchronized void forget(String listing) {
        byListing.remove(listing);
    }
}
