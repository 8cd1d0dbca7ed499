/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DescribedKeyPage;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.KeyPage;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A page of a container whose keys were mostly deleted (a sync app's container after a clean-up): the listing skips
 * the tombstones in a few store requests, not one request per tombstone, so a small page stays within the deadline
 * however many keys were deleted before the live ones.
 */
class ListingOverTombstonesTest {
    private static final String C = "box";
    private static final int DELETED = 3000;

    private final AtomicInteger storeListings = new AtomicInteger();
    private final ForwardingMetadataStore metadata = new ForwardingMetadataStore(new InMemoryMetadataStore()) {
        @Override
        public MetadataPage list(String container, String prefix, String startAfter, int limit) {
            storeListings.incrementAndGet();
            return super.list(container, prefix, startAfter, limit);
        }
    };
    private final List<Hybris> clients = new ArrayList<>();

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    private Hybris open() {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(30))
                .probeInterval(Duration.ZERO).probeOnOpen(false);
        List.of("c0", "c1", "c2").forEach(id -> b.cloud(new InMemoryCloudStore(id)));
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    @Test
    void aSmallPageSkipsThousandsOfTombstonesInAFewStoreRequests() {
        Hybris h = open();
        for (int batch = 0; batch < DELETED / 1000; batch++) {
            Map<String, byte[]> values = new LinkedHashMap<>();
            for (int i = 0; i < 1000; i++) {
                values.put(String.format("a-%05d", batch * 1000 + i), "x".getBytes(StandardCharsets.UTF_8));
            }
            h.tput(C, values);
            values.keySet().forEach(k -> h.delete(C, k));
        }
        h.put(C, "b-live", "v".getBytes(StandardCharsets.UTF_8));
        h.put(C, "c-live", "v".getBytes(StandardCharsets.UTF_8));

        storeListings.set(0);
        KeyPage first = h.list(C, "", null, 1);
        assertThat(first.keys()).containsExactly("b-live");
        assertThat(first.nextCursor()).hasValue("b-live");
        assertThat(storeListings.get()).as("store listings for one key behind %s tombstones", DELETED)
                .isLessThanOrEqualTo(16);
        assertThat(h.list(C, "", first.nextCursor().get(), 1).keys()).containsExactly("c-live");

        storeListings.set(0);
        DescribedKeyPage described = h.listDescribed(C, "", null, 2);
        assertThat(described.keys()).extracting(k -> k.key()).containsExactly("b-live", "c-live");
        assertThat(described.nextCursor()).isEmpty();
        assertThat(storeListings.get()).isLessThanOrEqualTo(16);

        storeListings.set(0);
        assertThat(h.list(C)).containsExactly("b-live", "c-live");
        assertThat(storeListings.get()).isLessThanOrEqualTo(16);
    }
}
