/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * Counters of a client's value cache since it opened ({@link Hybris#cacheStats()}). Counted per cache lookup: a
 * weak-consistency read that misses and falls back to a linearizable read looks up twice.
 *
 * @param hits      lookups answered from the cache with an entry that passed verification
 * @param misses    lookups that found no usable entry (absent, rejected or failed)
 * @param rejected  entries read back that failed verification (wrong hash, size, key or format, stale beyond Δ)
 *                  and were evicted; each is also a miss
 * @param errors    cache calls that failed (server down, timeout); reads then went to the clouds
 * @param bypassed  values not offered to the cache because they exceed its item-size limit (or would expose an
 *                  unwrapped data key)
 * @param stores    entries written to the cache (write-through, fill-on-read, staleness entries)
 */
public record CacheStats(long hits, long misses, long rejected, long errors, long bypassed, long stores) {
    /** Counters of a client without a cache: all zero. */
    public static final CacheStats NONE = new CacheStats(0, 0, 0, 0, 0, 0);

    /** hits / (hits + misses), or 0 when nothing was looked up. */
    public double hitRatio() {
        long lookups = hits + misses;
        return lookups == 0 ? 0 : (double) hits / lookups;
    }
}
