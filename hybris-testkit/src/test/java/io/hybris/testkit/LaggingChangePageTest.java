/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeListener;
import io.hybris.ChangeSubscription;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A store whose change-log page says there is more but serves none of it — a server that lags the one that counted
 * the commits, in a read mode other than consistent (docs/consul.md) — must not put the subscription into a busy
 * loop of reads: it reads again after a pause that grows (20, 40, 80, 160 ms...), and delivers every commit once
 * the store serves them. Before, it read again at once, as fast as the store answered.
 */
class LaggingChangePageTest extends HybrisContractFixture {
    private static final int LAGGING_PAGES = 5;

    private final AtomicInteger lagging = new AtomicInteger();
    private final List<Long> laggingReads = new CopyOnWriteArrayList<>();

    @Override
    protected MetadataStore newMetadataStore() {
        return new ForwardingMetadataStore(new InMemoryMetadataStore()) {
            @Override
            public MetadataChangePage changes(String container, long fromSequence, int limit) {
                if (lagging.getAndDecrement() > 0) {
                    laggingReads.add(System.nanoTime());
                    return new MetadataChangePage(List.of(), 0, true); // more, none of it here yet
                }
                return super.changes(container, fromSequence, limit);
            }
        };
    }

    @Test
    void pagesThatServeNothingYetAreReadAgainAfterAGrowingPauseNotInABusyLoop() {
        Hybris h = openPlain();
        h.put(C, "a", bytes("1"));
        h.put(C, "b", bytes("2"));
        List<String> keys = new CopyOnWriteArrayList<>();
        lagging.set(LAGGING_PAGES);
        try (ChangeSubscription s = h.subscribe(C, "", ChangeCursor.BEGINNING, new ChangeListener() {
            @Override
            public void onChange(Change change) {
                keys.add(change.key());
            }

            @Override
            public void onStopped(HybrisException cause) {
                keys.add("stopped: " + cause);
            }
        })) {
            await().atMost(AWAIT).until(() -> keys.size() >= 2);
            assertThat(keys).containsExactly("a", "b");
            assertThat(s.isActive()).isTrue();
        }
        assertThat(laggingReads).hasSize(LAGGING_PAGES);
        // the pauses between the lagging reads: at least 20 + 40 + 80 + 160 ms in all
        long pausedMillis = (laggingReads.get(LAGGING_PAGES - 1) - laggingReads.get(0)) / 1_000_000;
        assertThat(pausedMillis).as("time between the first and the last lagging read").isGreaterThanOrEqualTo(300);
    }
}
