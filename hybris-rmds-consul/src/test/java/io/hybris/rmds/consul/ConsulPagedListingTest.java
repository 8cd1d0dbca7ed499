/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A listing paged through a large Consul container reads the container's key names about twice, not once per page:
 * the names are kept between pages while the container's index is unchanged ({@code ListedNames}), and each page
 * checks that index with a listing that rolls every key into one name. Pages still see keys created, changed and
 * deleted since the first page. Bytes are counted at a proxy in front of the agent.
 */
class ConsulPagedListingTest {
    private static final int KEYS = 3000;
    private static final int PAGE = 100;
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    @Test
    void pagingThroughAContainerReadsItsNamesTwiceNotOncePerPage() throws Exception {
        String[] hostPort = CONSUL.address().split(":");
        try (FreezableProxy proxy = new FreezableProxy(hostPort[0], Integer.parseInt(hostPort[1]));
             ConsulMetadataStore store = builder(proxy.address()).build()) {
            write(store, "docs", 0, KEYS);
            long before = proxy.bytesFromServer();
            MetadataPage one = store.list("docs", null, null, 1);
            long listing = proxy.bytesFromServer() - before; // one listing of the names and one entry
            assertThat(one.hasMore()).isTrue();

            before = proxy.bytesFromServer();
            List<String> keys = listAll(store, "docs", PAGE, () -> { });
            long paged = proxy.bytesFromServer() - before;

            assertThat(keys).hasSize(KEYS).isSorted().doesNotHaveDuplicates();
            // the old way read every name for each of the 30 pages; now the names twice (the first page, and the
            // second, which keeps them) and each page's 100 entries, about a third of a listing
            assertThat(paged).as("bytes for %d pages, a names listing being %d bytes", KEYS / PAGE, listing)
                    .isLessThan(listing * 12);
        }
    }

    @Test
    void pagesSeeKeysCreatedChangedAndDeletedSinceTheFirstPage() throws Exception {
        String prefix = CONSUL.uniquePrefix("paged-");
        try (ConsulMetadataStore store = builder(CONSUL.address()).keyPrefix(prefix).build()) {
            write(store, "docs", 0, 500);
            AtomicInteger pages = new AtomicInteger();
            List<MetadataEntry> seen = new ArrayList<>();
            String after = null;
            while (true) {
                MetadataPage page = store.list("docs", null, after, 50);
                seen.addAll(page.entries());
                if (pages.incrementAndGet() == 3) {
                    // past the first pages (the names are kept by now): a key after them, one deleted, one changed
                    write(store, "docs", 999, 1);
                    new ConsulHttp(CONSUL.address()).delete(prefix + "/docs/" + key(400)); // a store may be shared
                    MetadataKey changed = new MetadataKey("docs", key(450));
                    store.conditionalUpdate(new MetadataUpdate(changed, "new".getBytes(StandardCharsets.UTF_8),
                            store.read(changed).orElseThrow().version()));
                }
                if (!page.hasMore()) {
                    break;
                }
                after = page.entries().get(page.entries().size() - 1).key();
            }
            List<String> keys = seen.stream().map(MetadataEntry::key).toList();
            assertThat(keys).isSorted().doesNotHaveDuplicates().hasSize(500).contains(key(999))
                    .doesNotContain(key(400));
            assertThat(seen.stream().filter(e -> e.key().equals(key(450))).findFirst().orElseThrow().value())
                    .asString(StandardCharsets.UTF_8).isEqualTo("new");
        }
    }

    private static List<String> listAll(ConsulMetadataStore store, String container, int limit, Runnable perPage) {
        List<String> keys = new ArrayList<>();
        String after = null;
        while (true) {
            MetadataPage page = store.list(container, null, after, limit);
            page.entries().forEach(e -> keys.add(e.key()));
            perPage.run();
            if (!page.hasMore()) {
                return keys;
            }
            after = page.entries().get(page.entries().size() - 1).key();
        }
    }

    /** Creates keys {@code first ..} in atomic updates of up to 50 keys. */
    private static void write(ConsulMetadataStore store, String container, int first, int count)
            throws VersionConflictException {
        for (int from = first; from < first + count; from += 50) {
            List<MetadataUpdate> batch = new ArrayList<>();
            for (int i = from; i < Math.min(first + count, from + 50); i++) {
                batch.add(new MetadataUpdate(new MetadataKey(container, key(i)), new byte[] {1},
                        MetadataVersion.ABSENT));
            }
            store.conditionalUpdateAll(batch);
        }
    }

    private static String key(int i) {
        return String.format("a-rather-long-key-name-of-a-document-%05d", i);
    }

    private static ConsulMetadataStore.Builder builder(String address) {
        return ConsulMetadataStore.builder().address(address).keyPrefix(CONSUL.uniquePrefix("paged-"))
                .operationTimeout(Duration.ofSeconds(10));
    }
}
