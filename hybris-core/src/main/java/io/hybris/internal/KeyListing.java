/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.DescribedKey;
import io.hybris.DescribedKeyPage;
import io.hybris.InvalidRequestException;
import io.hybris.KeyPage;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * LIST (paper §3.7) from metadata only: pages of a container's live keys, tombstones skipped, each key alone or with
 * its current version (decoded from the same listing entry, no read per key). A page asks the store for more
 * entries until it holds {@code limit} live keys or the store has no more, twice as many each time it has to ask
 * again (up to {@link Engine#MAX_PAGE}), so that skipping many deleted keys takes few requests. Thread-safe.
 */
final class KeyListing {
    private final MetadataStore store;
    private final MetadataCalls metadata;
    private final Duration deadline;

    KeyListing(MetadataStore store, MetadataCalls metadata, Duration deadline) {
        this.store = store;
        this.metadata = metadata;
        this.deadline = deadline;
    }

    KeyPage keys(String container, String prefix, String cursor, int limit) {
        Listed<String> page = page(container, prefix, cursor, limit, (key, meta) -> key);
        return new KeyPage(page.items(), page.next());
    }

    DescribedKeyPage described(String container, String prefix, String cursor, int limit) {
        Listed<DescribedKey> page = page(container, prefix, cursor, limit,
                (key, meta) -> new DescribedKey(key, meta.toVersionInfo()));
        return new DescribedKeyPage(page.items(), page.next());
    }

    /** Every key of the pages {@code pages} gives from a cursor (null: the first), followed to the last one. */
    static List<String> all(Function<String, KeyPage> pages) {
        List<String> all = new ArrayList<>();
        String cursor = null;
        do {
            KeyPage page = pages.apply(cursor);
            all.addAll(page.keys());
            cursor = page.nextCursor().orElse(null);
        } while (cursor != null);
        return List.copyOf(all);
    }

    /** A page of listed live keys, each made into an item. */
    private record Listed<T>(List<T> items, Optional<String> next) {
    }

    private <T> Listed<T> page(String container, String prefix, String cursor, int limit,
                               BiFunction<String, Metadata, T> item) {
        if (limit < 1 || limit > Engine.MAX_PAGE) {
            throw new InvalidRequestException("page size " + limit + " must be between 1 and " + Engine.MAX_PAGE);
        }
        Deadline d = Deadline.after(deadline);
        List<T> items = new ArrayList<>();
        String after = cursor;
        int ask = limit;
        while (true) {
            String from = after;
            int n = ask;
            MetadataPage page = metadata.listing(d, "list of " + container,
                    () -> store.list(container, prefix == null ? "" : prefix, from, n));
            for (int i = 0; i < page.entries().size(); i++) {
                MetadataEntry e = page.entries().get(i);
                after = e.key();
                Metadata meta = MetadataCodec.decode(e.value());
                if (!meta.isTombstone()) {
                    items.add(item.apply(e.key(), meta));
                    if (items.size() == limit) {
                        boolean more = page.hasMore() || i < page.entries().size() - 1;
                        return new Listed<>(items, more ? Optional.of(e.key()) : Optional.empty());
                    }
                }
            }
            if (!page.hasMore()) {
                return new Listed<>(items, Optional.empty());
            }
            // the page held deleted keys: ask for twice as many entries next time, so that a run of n tombstones
            // (a container whose keys were mostly deleted) costs about log2(n / limit) requests, not n / limit
            ask = Math.max(limit, Math.min(Engine.MAX_PAGE, ask * 2));
        }
    }
}
