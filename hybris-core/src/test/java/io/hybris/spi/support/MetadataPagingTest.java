/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataVersion;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MetadataPagingTest {
    private final List<List<String>> batches = new ArrayList<>();

    private MetadataPage page(List<String> keys, String prefix, String after, int limit, Set<String> gone) {
        List<String> names = keys.stream().map(KeyEncoding::encode).toList();
        return MetadataPaging.page(names, prefix, after, limit, 2, name -> !name.equals("foreign%"), batch -> {
            batches.add(batch);
            return batch.stream().filter(n -> !gone.contains(KeyEncoding.decode(n)))
                    .map(n -> new MetadataEntry(KeyEncoding.decode(n), new byte[0], new MetadataVersion(1)))
                    .toList();
        });
    }

    private static List<String> keys(MetadataPage page) {
        return page.entries().stream().map(MetadataEntry::key).toList();
    }

    @Test
    void pagesInEncodedOrderInBatchesAfterTheStartKey() {
        List<String> all = List.of("d", "a", "c", "b", "e");
        MetadataPage first = page(all, null, null, 3, Set.of());
        assertThat(keys(first)).containsExactly("a", "b", "c");
        assertThat(first.hasMore()).isTrue();
        assertThat(batches).containsExactly(List.of("a", "b"), List.of("c"));
        MetadataPage second = page(all, "", "c", 3, Set.of());
        assertThat(keys(second)).containsExactly("d", "e");
        assertThat(second.hasMore()).isFalse();
    }

    @Test
    void filtersByPrefixAndSkipsDeletedKeys() {
        MetadataPage page = page(List.of("x/1", "x/2", "y/1", "x/3"), "x/", null, 10, Set.of("x/2"));
        assertThat(keys(page)).containsExactly("x/1", "x/3");
        assertThat(page.hasMore()).isFalse();
        // a key deleted since the listing leaves room that the next batch fills
        assertThat(keys(page(List.of("a", "b", "c"), null, null, 2, Set.of("a")))).containsExactly("b", "c");
    }

    @Test
    void sortedNamesArePagedFromTheRangeFoundByBinarySearch() {
        List<String> sorted = List.of("a", "b1", "b2", "b3", "b4", "c");
        MetadataPage first = MetadataPaging.pageSorted(sorted, "b", null, 2, 1, this::read);
        assertThat(keys(first)).containsExactly("b1", "b2");
        assertThat(first.hasMore()).isTrue();
        assertThat(batches).containsExactly(List.of("b1"), List.of("b2"));
        // a start key that is not itself listed (deleted since) starts the page after where it would be
        MetadataPage rest = MetadataPaging.pageSorted(sorted, "b", "b2x", 5, 8, this::read);
        assertThat(keys(rest)).containsExactly("b3", "b4");
        assertThat(rest.hasMore()).as("the prefix's run ends before c").isFalse();
        assertThat(keys(MetadataPaging.pageSorted(sorted, "", "b4", 5, 8, this::read))).containsExactly("c");
        assertThat(MetadataPaging.pageSorted(sorted, "b", "c", 5, 8, this::read).entries()).isEmpty();
        assertThat(MetadataPaging.pageSorted(sorted, "d", null, 5, 8, this::read).entries()).isEmpty();
        assertThat(MetadataPaging.pageSorted(List.of(), null, null, 5, 8, this::read).hasMore()).isFalse();
    }

    @Test
    void sortedPagingAgreesWithUnsortedPaging() {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 500; round++) {
            List<String> names = new ArrayList<>();
            int n = random.nextInt(30);
            for (int i = 0; i < n; i++) {
                names.add(Integer.toString(random.nextInt(400), 4)); // short names sharing prefixes
            }
            List<String> sorted = names.stream().distinct().sorted().toList();
            String prefix = random.nextBoolean() ? "" : Integer.toString(random.nextInt(4));
            String after = random.nextBoolean() ? null : Integer.toString(random.nextInt(400), 4);
            int limit = 1 + random.nextInt(6);
            MetadataPage expected = MetadataPaging.page(sorted, prefix, after, limit, 2, name -> true, this::read);
            MetadataPage actual = MetadataPaging.pageSorted(sorted, prefix, after, limit, 2, this::read);
            assertThat(keys(actual)).as("names %s prefix %s after %s limit %d", sorted, prefix, after, limit)
                    .isEqualTo(keys(expected));
            assertThat(actual.hasMore()).isEqualTo(expected.hasMore());
        }
    }

    private List<MetadataEntry> read(List<String> batch) {
        batches.add(batch);
        return batch.stream().map(n -> new MetadataEntry(KeyEncoding.decode(n), new byte[0], new MetadataVersion(1)))
                .toList();
    }

    @Test
    void aLimitThatIsNotPositiveIsRejected() {
        assertThatThrownBy(() -> MetadataPaging.checkLimit(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be positive, was 0");
    }
}
