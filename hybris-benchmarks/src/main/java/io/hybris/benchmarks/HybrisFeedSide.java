/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.Change;
import io.hybris.ChangeListener;
import io.hybris.ChangeSubscription;
import io.hybris.HybrisConfig;
import io.hybris.HybrisException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataStore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Hybris's change feed: one writer client (f=1, three in-memory clouds) doing PUTs of small values, and
 * subscribers each with their own client and metadata store (own session) on
 * {@code subscribe(container, "", latestCursor(container), listener)}; a change's identity is its version id.
 */
final class HybrisFeedSide implements FeedSide {
    static final String CONTAINER = "feed";
    static final int KEYS = 16;

    private final String name;
    private final Supplier<MetadataStore> stores;
    private final byte[] value;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private MetadataStore writerStore;
    private Hybris writer;
    private long next;

    HybrisFeedSide(String name, Supplier<MetadataStore> stores, int valueBytes) {
        this.name = name;
        this.stores = stores;
        this.value = new byte[valueBytes];
    }

    @Override
    public String name() {
        return name;
    }

    private Hybris client(MetadataStore store, String id, boolean probes) {
        HybrisConfig.Builder b = Hybris.builder().f(1).clientId(id).metadataStore(store)
                .cloud(new InMemoryCloudStore("m1")).cloud(new InMemoryCloudStore("m2"))
                .cloud(new InMemoryCloudStore("m3"))
                .deadline(Duration.ofSeconds(30));
        if (!probes) {
            b.probeInterval(Duration.ZERO).probeOnOpen(false);
        }
        return Hybris.open(b.build());
    }

    @Override
    public void open(int subscribers, FeedRecorder recorder) {
        writerStore = stores.get();
        toClose.add(writerStore);
        writer = client(writerStore, "writer", true);
        toClose.add(0, writer);
        for (int k = 0; k < KEYS; k++) {
            writer.put(CONTAINER, key(k), value);
        }
        for (int s = 0; s < subscribers; s++) {
            MetadataStore store = stores.get();
            Hybris client = client(store, "sub" + s, false);
            toClose.add(store);
            toClose.add(0, client);
            int subscriber = s;
            ChangeSubscription subscription = client.subscribe(CONTAINER, "", client.latestCursor(CONTAINER),
                    new ChangeListener() {
                        @Override
                        public void onChange(Change change) {
                            recorder.delivered(subscriber, change.version().version());
                        }

                        @Override
                        public void onStopped(HybrisException cause) {
                            recorder.failed(subscriber, cause);
                        }
                    });
            toClose.add(0, subscription);
        }
    }

    static String key(long n) {
        return String.format("key-%02d", n % KEYS);
    }

    @Override
    public String write() {
        return writer.put(CONTAINER, key(next++), value).version();
    }

    /**
     * The sizes of the newest commit's metadata entry and change-log record ({@code ChangeLogCodec}: a format
     * byte, a count, then per key its length, its bytes, the value's length and its bytes), so a baseline writes
     * the same number of bytes.
     */
    int[] entryAndRecordBytes() {
        long latest = writerStore.latestChange(CONTAINER);
        MetadataChange change = writerStore.changes(CONTAINER, latest, 1).changes().get(0);
        MetadataChange.Update u = change.updates().get(0);
        int entry = u.value().length;
        return new int[] {entry, 1 + 4 + 4 + u.key().getBytes(StandardCharsets.UTF_8).length + 4 + entry};
    }

    @Override
    public void close() {
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (Exception e) {
                // closing a benchmark's clients
            }
        }
        toClose.clear();
    }
}
