/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DescribedKey;
import io.hybris.DescribedKeyPage;
import io.hybris.Hybris;
import io.hybris.KeyPage;
import io.hybris.spi.KeyEncoding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client's paged listing while keys are written, deleted and written again between its pages (by it and by another
 * client, alone and in transactions): every key live through the paging is listed once, no key deleted throughout
 * is, pages are in encoded-key order and within their limit, and a cursor goes on from any client even when its key
 * was deleted. Extend it as {@link HybrisContract} is extended (a nested class of a store's suite).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
public abstract class ListingUnderChangeContract extends HybrisContractFixture {
    private static final Comparator<String> ENCODED = Comparator.comparing(KeyEncoding::encode);

    @Test
    void randomWritesDeletesAndRewritesBetweenPagesNeverLoseDuplicateOrReorderAKey() {
        Hybris lister = openPlain();
        Hybris writer = openPlain();
        Random random = new Random(5);
        List<String> universe = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            universe.add(String.format("k%02d", i));
            universe.add(String.format("k%02d/", i)); // a key the previous one is a prefix of
        }
        Set<String> live = new TreeSet<>();
        for (String k : universe) {
            if (random.nextInt(3) > 0) {
                writer.put(C, k, bytes(k));
                live.add(k);
            } else if (random.nextBoolean()) {
                writer.put(C, k, bytes(k));
                writer.delete(C, k);
            }
        }
        for (int round = 0; round < 8; round++) {
            Set<String> liveThroughout = new TreeSet<>(live);
            Set<String> deadThroughout = new TreeSet<>(universe);
            deadThroughout.removeAll(live);
            List<String> listed = new ArrayList<>();
            int limit = 1 + random.nextInt(6);
            String cursor = null;
            do {
                Hybris by = random.nextBoolean() ? lister : writer; // the cursor works from any client
                KeyPage page = by.list(C, "", cursor, limit);
                assertThat(page.keys().size()).isLessThanOrEqualTo(limit);
                if (page.nextCursor().isPresent()) {
                    assertThat(page.keys()).as("a page with a cursor holds keys").isNotEmpty();
                }
                listed.addAll(page.keys());
                cursor = page.nextCursor().orElse(null);
                // between pages: delete the cursor's key or write it again, and change a few others
                List<String> changed = new ArrayList<>();
                if (cursor != null) {
                    changed.add(cursor);
                }
                for (int i = 0; i < 3; i++) {
                    changed.add(universe.get(random.nextInt(universe.size())));
                }
                Map<String, byte[]> together = new LinkedHashMap<>();
                for (String k : changed) {
                    if (live.contains(k) && random.nextBoolean()) {
                        writer.delete(C, k);
                        live.remove(k);
                    } else if (random.nextBoolean()) {
                        together.put(k, bytes(k + " again"));
                    } else {
                        writer.put(C, k, bytes(k + " again"));
                        live.add(k);
                    }
                    liveThroughout.retainAll(live);
                    deadThroughout.removeAll(live);
                }
                if (!together.isEmpty()) {
                    writer.tput(C, together); // several keys visible at once
                    live.addAll(together.keySet());
                    liveThroughout.retainAll(live);
                    deadThroughout.removeAll(live);
                }
            } while (cursor != null);
            assertThat(listed).as("round %d: no key twice", round).doesNotHaveDuplicates();
            assertThat(listed).as("round %d: in encoded-key order", round).isSortedAccordingTo(ENCODED);
            assertThat(listed).as("round %d: every key live throughout", round).containsAll(liveThroughout);
            assertThat(listed).as("round %d: no key deleted throughout", round).doesNotContainAnyElementsOf(
                    deadThroughout);
            assertThat(lister.list(C)).as("round %d: a quiet listing", round)
                    .containsExactlyElementsOf(live.stream().sorted(ENCODED).toList());
        }
    }

    @Test
    void aCursorWhoseKeyWasDeletedOrNeverExistedGoesOnAfterIt() {
        Hybris h = openPlain();
        for (String k : List.of("a", "b", "c", "d")) {
            h.put(C, k, bytes(k));
        }
        KeyPage first = h.list(C, "", null, 2);
        assertThat(first.keys()).containsExactly("a", "b");
        h.delete(C, "b");
        h.delete(C, "c");
        Hybris other = openPlain();
        assertThat(other.list(C, "", first.nextCursor().orElseThrow(), 2).keys()).containsExactly("d");
        assertThat(other.list(C, "", "bb", 2).keys()).containsExactly("d");
        h.put(C, "b", bytes("again"));
        h.put(C, "c", bytes("again"));
        assertThat(other.list(C, "", "b", 2).keys()).containsExactly("c", "d");
        DescribedKeyPage described = other.listDescribed(C, "", "a", 10);
        assertThat(described.keys()).extracting(DescribedKey::key).containsExactly("b", "c", "d");
        for (DescribedKey k : described.keys()) {
            assertThat(h.describe(C, k.key())).hasValue(k.version());
        }
    }
}
