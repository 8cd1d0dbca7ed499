/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The paging of {@link MetadataStore#list} while the container changes between pages, and over keys that are
 * prefixes of each other or hold characters the stores escape: what a store that keeps names between pages (or
 * cuts a page from its own order) must still answer as a fresh listing would. Extend it as {@link
 * MetadataStoreContract} is extended (a nested class of a store's contract test).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class ListingContract extends MetadataStoreFixture {
    /** Keys that are prefixes of each other, and characters every store escapes or orders differently. */
    private static final List<String> ODD = List.of("a", "a/", "a/b", "a/b/", "a//b", "a.", "a..", "a.b", "a%",
            "a%2F", "a-", "a_", "a~", "a ", "a b", "aa", "a😀", "aé", "a/é", ".", "..", ".a", "%", "%2E", "~", "-",
            "é", "😀", "ab".repeat(128), "é".repeat(128));

    /** The prefixes listed: each one of {@link #ODD}, shorter starts of them, and ones no key has. */
    private static final List<String> PREFIXES = List.of("", "a", "a/", "a/b", "a.", "a%", "a%2", "a ", "a😀",
            ".", "..", "%", "%2", "~", "é", "😀", "b", "a/c", "ab".repeat(64), "é".repeat(64));

    /** Every key of {@code container} with {@code prefix} after {@code startAfter}, page by page of {@code limit}. */
    private List<String> paged(String container, String prefix, String startAfter, int limit) {
        List<String> out = new ArrayList<>();
        String after = startAfter;
        for (int pages = 0; ; pages++) {
            assertThat(pages).as("pages of %s", container).isLessThan(10_000);
            MetadataPage page = store.list(container, prefix, after, limit);
            assertThat(page.entries().size()).isLessThanOrEqualTo(limit);
            out.addAll(keys(page));
            if (!page.hasMore()) {
                return out;
            }
            if (!page.entries().isEmpty()) {
                after = page.entries().get(page.entries().size() - 1).key();
            }
        }
    }

    private static List<String> expected(List<String> keys, String prefix, String startAfter) {
        String after = startAfter == null ? null : KeyEncoding.encode(startAfter);
        return sortedByEncoding(keys.stream().filter(k -> k.startsWith(prefix))
                .filter(k -> after == null || KeyEncoding.encode(k).compareTo(after) > 0).toList());
    }

    @Test
    void everyPrefixAndCursorOverKeysThatArePrefixesOfEachOtherListsWhatAFilterWould() throws Exception {
        createAll("odd", ODD);
        createAll("od", List.of("a", "a/b")); // a container whose name starts another's
        createAll("odd-2", List.of("a", "a/b", "zz"));
        for (String prefix : PREFIXES) {
            for (int limit : new int[] {1, 2, 7, 1000}) {
                assertThat(paged("odd", prefix, null, limit)).as("prefix '%s', pages of %d", prefix, limit)
                        .containsExactlyElementsOf(expected(ODD, prefix, null));
            }
        }
        List<String> cursors = new ArrayList<>(ODD);
        cursors.addAll(List.of("a/a", "a.c", "a&", "", "zzz", "ab".repeat(100)));
        for (String cursor : cursors) {
            for (String prefix : List.of("", "a", "a/", ".")) {
                assertThat(paged("odd", prefix, cursor, 3)).as("prefix '%s' after '%s'", prefix, cursor)
                        .containsExactlyElementsOf(expected(ODD, prefix, cursor));
            }
        }
        assertThat(paged("od", "", null, 1)).containsExactly("a", "a/b");
        assertThat(paged("odd-2", "a", null, 1)).containsExactly("a", "a/b");
    }

    @Test
    void keysCreatedAndRewrittenBetweenPagesAreListedOnceAndInOrder() throws Exception {
        List<String> initial = new ArrayList<>();
        for (int i = 0; i < 60; i += 2) {
            initial.add(String.format("k%03d", i));
        }
        createAll("mut", initial);
        Set<String> live = new TreeSet<>(initial);
        List<String> listed = new ArrayList<>();
        Set<String> createdAfterCursor = new HashSet<>();
        String after = null;
        int round = 0;
        while (true) {
            MetadataPage page = store.list("mut", "", after, 3);
            assertThat(page.entries().size()).isLessThanOrEqualTo(3);
            listed.addAll(keys(page));
            if (!page.hasMore()) {
                break;
            }
            after = page.entries().get(page.entries().size() - 1).key();
            int at = Integer.parseInt(after.substring(1, 4));
            round++;
            // between pages: a key just before the cursor, one just after it, one far after it, a rewrite of a
            // key not listed yet and of one listed, and keys of containers whose names start alike
            List<MetadataUpdate> updates = new ArrayList<>();
            for (String k : List.of(String.format("k%03d", at - 1), String.format("k%03d", at + 1),
                    String.format("k%03d", at + 1) + "/" + round, String.format("k%03d", at + 1) + "%")) {
                if (live.add(k)) {
                    updates.add(new MetadataUpdate(key("mut", k), bytes("new " + k), MetadataVersion.ABSENT));
                    if (KeyEncoding.encode(k).compareTo(KeyEncoding.encode(after)) > 0) {
                        createdAfterCursor.add(k);
                    }
                }
            }
            store.conditionalUpdateAll(updates);
            update(key("mut", String.format("k%03d", Math.min(58, at + 4 - at % 2))), "rewritten " + round);
            update(key("mut", after), "rewritten " + round);
            store.conditionalUpdate(new MetadataUpdate(key("mu", "k" + round), bytes("x"), MetadataVersion.ABSENT));
            store.conditionalUpdate(new MetadataUpdate(key("mut-" + round, after), bytes("x"),
                    MetadataVersion.ABSENT));
        }
        assertThat(listed).as("no key twice").doesNotHaveDuplicates();
        assertThat(listed).as("in encoded-key order").isEqualTo(sortedByEncoding(listed));
        assertThat(listed).as("every key that lived through the paging").containsAll(initial);
        assertThat(listed).as("keys created after the cursor before the listing got there")
                .containsAll(createdAfterCursor);
        assertThat(live).as("nothing from another container").containsAll(listed);
        assertThat(paged("mut", "", null, 1000)).containsExactlyElementsOf(sortedByEncoding(new ArrayList<>(live)));
    }

    @Test
    void randomListingsAnswerAsTheReferenceStoreDoes() throws Exception {
        String[] pieces = {"a", "b", "/", ".", "%", "~", " ", "-", "_", "é", "😀", "%2F", ".."};
        Random random = new Random(3);
        List<String> universe = new ArrayList<>();
        Set<String> unique = new HashSet<>();
        while (universe.size() < 120) {
            StringBuilder k = new StringBuilder();
            for (int i = random.nextInt(4); i >= 0; i--) {
                k.append(pieces[random.nextInt(pieces.length)]);
            }
            if (unique.add(k.toString())) {
                universe.add(k.toString());
            }
        }
        try (InMemoryMetadataStore reference = new InMemoryMetadataStore()) {
            for (int round = 0; round < 40; round++) {
                List<MetadataUpdate> updates = new ArrayList<>();
                Set<String> picked = new HashSet<>();
                for (int i = 0; i < 6; i++) {
                    String k = universe.get(random.nextInt(universe.size()));
                    if (picked.add(k)) {
                        MetadataVersion v = store.read(key("diff", k)).map(x -> x.version())
                                .orElse(MetadataVersion.ABSENT);
                        updates.add(new MetadataUpdate(key("diff", k), bytes(k + " " + round), v));
                    }
                }
                store.conditionalUpdateAll(updates);
                for (MetadataUpdate u : updates) {
                    MetadataVersion v = reference.read(u.key()).map(x -> x.version()).orElse(MetadataVersion.ABSENT);
                    reference.conditionalUpdate(new MetadataUpdate(u.key(), u.value(), v));
                }
                for (int q = 0; q < 5; q++) {
                    String prefix = random.nextInt(3) == 0 ? ""
                            : Character.toString(universe.get(random.nextInt(universe.size())).codePointAt(0));
                    String after = random.nextBoolean() ? null : universe.get(random.nextInt(universe.size()));
                    int limit = 1 + random.nextInt(5);
                    MetadataPage got = store.list("diff", prefix, after, limit);
                    MetadataPage want = reference.list("diff", prefix, after, limit);
                    String what = String.format("round %d: prefix '%s' after '%s' limit %d", round, prefix, after,
                            limit);
                    assertThat(keys(got)).as(what).containsExactlyElementsOf(keys(want));
                    for (int i = 0; i < got.entries().size(); i++) {
                        assertThat(got.entries().get(i).value()).as(what).isEqualTo(want.entries().get(i).value());
                    }
                    if (!want.hasMore()) {
                        assertThat(got.hasMore()).as(what).isFalse();
                    }
                    assertThat(paged("diff", prefix, after, limit)).as(what)
                            .containsExactlyElementsOf(paged(reference, prefix, after));
                }
            }
        }
    }

    private static List<String> paged(MetadataStore reference, String prefix, String after) {
        return keys(reference.list("diff", prefix, after, 100_000));
    }
}
