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
    void aLimitThatIsNotPositiveIsRejected() {
        assertThatThrownBy(() -> MetadataPaging.checkLimit(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be positive, was 0");
    }
}
