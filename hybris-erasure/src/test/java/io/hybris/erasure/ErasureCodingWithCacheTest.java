/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ErasurePolicy;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.testkit.RecordingCloudStore;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.UnavailableCloudStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Erasure coding with the value cache (memcached from the test environment, through hybris-cache): the cache holds
 * the whole stored value of an erasure-coded version, checked against the version's SHA-256 like a replica, so a
 * cached value is served even when too few chunks are left on the clouds.
 */
class ErasureCodingWithCacheTest {

    @Test
    void anErasureCodedValueIsServedFromTheCacheWhenTooFewChunksAreLeft() {
        String memcached = TestEnvironment.require().memcachedAddress();
        UnavailableCloudStore c0 = UnavailableCloudStore.of(new InMemoryCloudStore("c0"));
        UnavailableCloudStore c1 = UnavailableCloudStore.of(new InMemoryCloudStore("c1"));
        RecordingCloudStore c2 = RecordingCloudStore.of(new InMemoryCloudStore("c2"));
        c0.setActive(false);
        c1.setActive(false);
        String prefix = "ec" + Long.toString(System.nanoTime(), 36) + "/"; // own entries in a shared memcached
        CacheSettings cache = CacheSettings.builder()
                .type("memcached", Map.of("servers", memcached, "timeout", "2s")).build();
        try (Hybris h = Hybris.open(HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore()).objectPrefix(prefix)
                .cloud(c0).cloud(c1).cloud(c2).probeInterval(Duration.ZERO)
                .erasurePolicy(ErasurePolicy.ERASURE).erasureCoder("java").cache(cache).build())) {
            byte[] v = new byte[50_000];
            new Random(1).nextBytes(v);
            h.put("c", "k", v);
            assertThat(h.describe("c", "k").orElseThrow().clouds()).hasSize(3);
            await().atMost(Duration.ofSeconds(10)).until(() -> h.cacheStats().stores() >= 1);
            c0.setActive(true);
            c1.setActive(true); // one chunk left: the clouds alone cannot serve k=2
            c2.reset();
            assertThat(h.get("c", "k")).hasValue(v);
            assertThat(h.cacheStats().hits()).isEqualTo(1);
            assertThat(c2.count(RecordingCloudStore.Op.GET)).isZero();
        }
    }
}
