/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;

/**
 * The paging of {@link MetadataStore#list} for a store that lists a container's key names in one request and
 * then fetches values in batches (ZooKeeper: pipelined reads; Consul: read transactions): it picks the names in
 * the requested range in encoded-key order, fetches at most {@code limit} entries in batches of at most
 * {@code batchSize} and says whether more remain.
 *
 * <pre>{@code
 * MetadataPaging.checkLimit(limit);
 * List<String> names = ...;   // every encoded key name of the container, in any order
 * return MetadataPaging.page(names, prefix, startAfter, limit, 256, name -> true,
 *         batch -> readAll(batch));   // the entries of the batch's keys that still exist, in batch order
 * }</pre>
 * Stateless and thread-safe.
 */
public final class MetadataPaging {

    /** Fetches the entries of a batch of keys. */
    @FunctionalInterface
    public interface BatchReader {
        /**
         * @param encodedNames encoded key names ({@link KeyEncoding#encode}), sorted
         * @return the entries of the keys that still exist, in the order given (a key deleted since the listing
         *         is left out)
         */
        List<MetadataEntry> read(List<String> encodedNames);
    }

    private MetadataPaging() {
    }

    /**
     * Rejects a limit that is not positive, as {@link MetadataStore#list} promises.
     *
     * @throws IllegalArgumentException if {@code limit <= 0}
     */
    public static void checkLimit(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
    }

    /**
     * One page of a listing.
     *
     * @param encodedNames every encoded key name listed, in any order
     * @param prefix       the key prefix requested (not encoded), null or empty for all keys
     * @param startAfter   the key after which the page starts (not encoded), or null
     * @param limit        the most entries in the page, positive
     * @param batchSize    the most keys fetched by one {@link BatchReader#read}
     * @param accept       false for a name that is not a Hybris key (the store logs and skips it); asked only for
     *                     names in the requested range
     * @param reader       fetches the entries of a batch
     */
    public static MetadataPage page(Collection<String> encodedNames, String prefix, String startAfter, int limit,
                                    int batchSize, Predicate<String> accept, BatchReader reader) {
        checkLimit(limit);
        String encodedPrefix = encodedPrefix(prefix);
        String encodedAfter = startAfter == null ? null : KeyEncoding.encode(startAfter);
        List<String> candidates = encodedNames.stream()
                .filter(name -> name.startsWith(encodedPrefix))
                .filter(name -> encodedAfter == null || name.compareTo(encodedAfter) > 0)
                .filter(accept)
                .sorted()
                .toList();
        return read(candidates, 0, candidates.size(), limit, batchSize, reader);
    }

    /**
     * One page of a listing from names already sorted (in {@link String#compareTo} order) and filtered to Hybris
     * keys: the page's range is found by binary search, so a page costs O(log n + limit) whatever the position of
     * {@code startAfter}, and paging through n names kept between pages costs O(n) in all, not O(n&sup2; / limit).
     *
     * @param sortedNames encoded key names, sorted, each a Hybris key; not modified
     * @param prefix      the key prefix requested (not encoded), null or empty for all keys
     * @param startAfter  the key after which the page starts (not encoded), or null
     * @param limit       the most entries in the page, positive
     * @param batchSize   the most keys fetched by one {@link BatchReader#read}
     * @param reader      fetches the entries of a batch
     */
    public static MetadataPage pageSorted(List<String> sortedNames, String prefix, String startAfter, int limit,
                                          int batchSize, BatchReader reader) {
        checkLimit(limit);
        String encodedPrefix = encodedPrefix(prefix);
        int from = firstAtOrAfter(sortedNames, encodedPrefix);
        if (startAfter != null) {
            String encodedAfter = KeyEncoding.encode(startAfter);
            int after = firstAtOrAfter(sortedNames, encodedAfter);
            if (after < sortedNames.size() && sortedNames.get(after).equals(encodedAfter)) {
                after++;
            }
            from = Math.max(from, after);
        }
        // the names with the prefix are one run from its lower bound; encoded names are ASCII, so the run ends
        // before prefix + U+FFFF
        int to = encodedPrefix.isEmpty() ? sortedNames.size()
                : firstAtOrAfter(sortedNames, encodedPrefix + Character.MAX_VALUE);
        return read(sortedNames, from, Math.max(from, to), limit, batchSize, reader);
    }

    /** Reads up to {@code limit} entries of {@code names[from, to)} in batches; more remain if names are left. */
    private static MetadataPage read(List<String> names, int from, int to, int limit, int batchSize,
                                     BatchReader reader) {
        List<MetadataEntry> entries = new ArrayList<>();
        int next = from;
        while (entries.size() < limit && next < to) {
            int n = Math.min(Math.min(limit - entries.size(), to - next), batchSize);
            List<String> batch = names.subList(next, next + n);
            next += n;
            entries.addAll(reader.read(batch));
        }
        return new MetadataPage(entries, next < to);
    }

    private static String encodedPrefix(String prefix) {
        return prefix == null || prefix.isEmpty() ? "" : KeyEncoding.encode(prefix);
    }

    /** The index of the first name not less than {@code bound}. */
    private static int firstAtOrAfter(List<String> sorted, String bound) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted.get(mid).compareTo(bound) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
