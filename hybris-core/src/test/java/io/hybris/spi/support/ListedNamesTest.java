/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ListedNamesTest {
    private final ListedNames names = new ListedNames();

    @Test
    void keptNamesComeBackOnlyAtTheVersionTheyWereListedAt() {
        names.keep("c", 7L, List.of("a", "b"), 0);
        assertThat(names.holds("c")).isTrue();
        assertThat(names.current("c", 7L, 1)).containsExactly("a", "b");
        assertThat(names.current("c", 8L, 2)).as("changed since").isNull();
        assertThat(names.holds("c")).as("dropped once stale").isFalse();
        assertThat(names.current("c", 7L, 3)).isNull();
    }

    @Test
    void aListingUnusedForAMinuteIsDroppedAndEachUseExtendsIt() {
        names.keep("c", "v", List.of("a"), 0);
        assertThat(names.current("c", "v", ListedNames.IDLE_NANOS)).containsExactly("a");
        assertThat(names.current("c", "v", 2 * ListedNames.IDLE_NANOS)).as("used a minute after the last use")
                .containsExactly("a");
        assertThat(names.current("c", "v", 3 * ListedNames.IDLE_NANOS + 1)).isNull();
    }

    @Test
    void theLeastRecentlyUsedListingsGoFirst() {
        for (int i = 0; i < ListedNames.MAX_LISTINGS; i++) {
            names.keep("c" + i, 1, List.of("a"), 0);
        }
        assertThat(names.current("c0", 1, 1)).isNotNull(); // c1 is now the least recently used
        names.keep("new", 1, List.of("a"), 2);
        assertThat(names.holds("c1")).isFalse();
        assertThat(names.holds("c0")).isTrue();
        assertThat(names.holds("new")).isTrue();
        names.forget("new");
        assertThat(names.holds("new")).isFalse();
    }
}
