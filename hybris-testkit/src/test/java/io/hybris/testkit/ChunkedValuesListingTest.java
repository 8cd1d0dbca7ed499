/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.KeyPage;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listings over the in-memory store only: values stored in chunks and uploads in parts list as their key alone
 * (and uploads in progress not at all), and containers whose names start alike keep their keys apart, whatever
 * the page size. Writes and deletions between pages, on every store: {@link ListingUnderChangeContract}.
 */
class ChunkedValuesListingTest {
    private static final String C = "box";

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final OpenedClients clients = new OpenedClients();

    @AfterEach
    void close() {
        clients.close();
    }

    private Hybris open() {
        return clients.open(OpenedClients.config(metadata, OpenedClients.inMemoryClouds(3)).chunkThreshold(65536)
                .chunkSize(65536));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void chunkedValuesAndUploadsInPartsListOnlyTheirKeysAndContainersNeverLeak() {
        Hybris h = open();
        byte[] large = new byte[150_000];
        new Random(1).nextBytes(large);
        h.put(C, "large", large);
        h.put(C, "streamed", new ByteArrayInputStream(large), large.length);
        PartUploads parts = PartUploads.of(h);
        var upload = parts.start(C, "in-parts");
        var part1 = parts.upload(upload, 1, new ByteArrayInputStream(large), large.length);
        var pending = parts.start(C, "pending");
        parts.upload(pending, 1, new ByteArrayInputStream(large), large.length);
        assertThat(h.list(C)).containsExactly("large", "streamed");
        parts.complete(upload, List.of(part1, parts.upload(upload, 2, new ByteArrayInputStream(large, 0, 10), 10)),
                PutOptions.none());
        h.put("bo", "x", bytes("x"));
        h.put("box-2", "large", bytes("x"));
        h.put("box2", "a", bytes("x"));
        for (int limit : new int[] {1, 2, 1000}) {
            List<String> all = KeyPageWalk.all(cursor -> h.list(C, "", cursor, limit));
            assertThat(all).as("pages of %d", limit).containsExactly("in-parts", "large", "streamed");
        }
        assertThat(h.listDescribed(C, "", null, 10).keys())
                .extracting(k -> k.key() + "=" + k.version().size())
                .containsExactly("in-parts=" + (large.length + 10), "large=" + large.length, "streamed=" + large.length);
        assertThat(h.list("bo")).containsExactly("x");
        assertThat(h.list("box-2")).containsExactly("large");
    }

    /** Follows a listing's cursors to its end. */
    private static final class KeyPageWalk {
        static List<String> all(java.util.function.Function<String, KeyPage> pages) {
            List<String> all = new ArrayList<>();
            String cursor = null;
            int n = 0;
            do {
                KeyPage page = pages.apply(cursor);
                assertThat(++n).isLessThan(1000);
                all.addAll(page.keys());
                cursor = page.nextCursor().orElse(null);
            } while (cursor != null);
            return all;
        }
    }
}
