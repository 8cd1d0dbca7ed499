/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.testkit.RecordingCloudStore;
import io.hybris.testkit.TestEnvironment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Three in-memory clouds (recorded), an in-memory metadata store, and memcached from the test environment;
 * opens any number of clients over them. Each fixture uses its own object prefix, so tests sharing one memcached
 * never see each other's entries.
 */
final class CacheFixture implements AutoCloseable {
    final String memcached;
    final String prefix;
    final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    final List<RecordingCloudStore> clouds = List.of(
            RecordingCloudStore.of(new InMemoryCloudStore("c1")),
            RecordingCloudStore.of(new InMemoryCloudStore("c2")),
            RecordingCloudStore.of(new InMemoryCloudStore("c3")));
    private final List<Hybris> opened = new ArrayList<>();

    CacheFixture() {
        this(TestEnvironment.require().memcachedAddress());
    }

    CacheFixture(String memcached) {
        this.memcached = memcached;
        this.prefix = "t" + Long.toString(System.nanoTime(), 36) + "/";
    }

    /** Cache settings for the test memcached; {@code extra} adjusts them. */
    CacheSettings.Builder cache() {
        return CacheSettings.builder().type("memcached", Map.of("servers", memcached, "max-item-size", "16MiB",
                "timeout", "500ms"));
    }

    Hybris open(String clientId, CacheSettings cache) {
        return open(clientId, cache, b -> b);
    }

    Hybris open(String clientId, CacheSettings cache, UnaryOperator<HybrisConfig.Builder> adjust) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId(clientId).metadataStore(metadata)
                .objectPrefix(prefix).deadline(Duration.ofSeconds(20)).probeInterval(Duration.ZERO).cache(cache);
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(adjust.apply(b).build());
        opened.add(h);
        return h;
    }

    long cloudGets() {
        return clouds.stream().mapToLong(c -> c.count(RecordingCloudStore.Op.GET)).sum();
    }

    @Override
    public void close() {
        opened.forEach(Hybris::close);
    }
}
