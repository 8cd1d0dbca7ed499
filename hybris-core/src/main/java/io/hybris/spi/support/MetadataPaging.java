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
        String encodedPrefix = prefix == null || prefix.isEmpty() ? "" : KeyEncoding.encode(prefix);
        String encodedAfter = startAfter == null ? null : KeyEncoding.encode(startAfter);
        List<String> candidates = encodedNames.stream()
                .filter(name -> name.startsWith(encodedPrefix))
                .filter(name -> encodedAfter == null || name.compareTo(encodedAfter) > 0)
                .filter(accept)
                .sorted()
                .toList();
        List<MetadataEntry> entries = new ArrayList<>();
        int next = 0;
        while (entries.size() < limit && next < candidates.size()) {
            int n = Math.min(Math.min(limit - entries.size(), candidates.size() - next), batchSize);
            List<String> batch = candidates.subList(next, next + n);
            next += n;
            entries.addAll(reader.read(batch));
        }
        return new MetadataPage(entries, next < candidates.size());
    }
}
