/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.CacheSettings;
import io.hybris.Consistency;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The hybris.cache.* properties and the η counter's metadata encoding (no server needed). */
class CacheConfigTest {
    private static Map<String, String> base() {
        Map<String, String> p = new TreeMap<>();
        p.put("hybris.rmds.type", "memory");
        p.put("hybris.cloud.a.type", "memory");
        p.put("hybris.cloud.b.type", "memory");
        return p;
    }

    @Test
    void propertiesAndEnvironmentConfigureTheCache() {
        Map<String, String> p = base();
        p.put("hybris.cache.type", "memcached");
        p.put("hybris.cache.servers", "127.0.0.1:1");
        p.put("hybris.cache.timeout", "50ms");
        p.put("hybris.cache.fill-on-read", "false");
        p.put("hybris.cache.consistency", "bounded-time");
        p.put("hybris.cache.staleness.time", "5s");
        CacheSettings c = HybrisConfig.fromMap(p, Map.of("HYBRIS_CACHE_STALENESS_VERSIONS", "4",
                "HYBRIS_CACHE_SERVERS", "10.0.0.1:11211,10.0.0.2:11211")).cache();
        assertThat(c.type()).contains("memcached");
        assertThat(c.options()).isEqualTo(Map.of("servers", "10.0.0.1:11211,10.0.0.2:11211", "timeout", "50ms"));
        assertThat(c.writeThrough()).isTrue();
        assertThat(c.fillOnRead()).isFalse();
        assertThat(c.consistency()).isEqualTo(Consistency.BOUNDED_STALENESS_TIME);
        assertThat(c.stalenessTime()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.stalenessVersions()).isEqualTo(4);
        assertThat(HybrisConfig.fromMap(base(), Map.of()).cache().enabled()).isFalse();
    }

    @Test
    void mistakesAreRejectedNamingTheKey() {
        Map<String, String> unknown = base();
        unknown.put("hybris.cache.type", "memcached");
        unknown.put("hybris.cache.servers", "127.0.0.1:1");
        unknown.put("hybris.cache.sever", "x");
        assertThatThrownBy(() -> HybrisConfig.fromMap(unknown, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cache.sever");
        Map<String, String> noDelta = base();
        noDelta.put("hybris.cache.type", "memcached");
        noDelta.put("hybris.cache.servers", "127.0.0.1:1");
        noDelta.put("hybris.cache.consistency", "bounded-time");
        assertThatThrownBy(() -> HybrisConfig.fromMap(noDelta, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cache.staleness.time");
        Map<String, String> noType = base();
        noType.put("hybris.cache.consistency", "read-your-writes");
        assertThatThrownBy(() -> HybrisConfig.fromMap(noType, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cache.type");
        Map<String, String> wrongType = base();
        wrongType.put("hybris.cache.type", "redis");
        assertThatThrownBy(() -> HybrisConfig.fromMap(wrongType, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("available: memcached");
    }

    @Test
    void longAndUnusualKeysMapToValidDistinctMemcachedKeys() {
        String longKey = "hybris/c/" + "x".repeat(300) + "#1_a";
        String spaced = "hybris/c/a b#1_a";
        assertThat(MemcachedKeys.toMemcached("hybris/c/k#1_a")).isEqualTo("hybris/c/k#1_a");
        assertThat(MemcachedKeys.toMemcached(longKey)).startsWith("sha256:").hasSize(7 + 64);
        assertThat(MemcachedKeys.toMemcached(spaced)).startsWith("sha256:")
                .isNotEqualTo(MemcachedKeys.toMemcached(longKey));
        assertThat(MemcachedValueCache.seconds(Duration.ofMillis(1500))).isEqualTo(2);
        assertThat(MemcachedValueCache.seconds(Duration.ZERO)).isZero();
    }

    @Test
    void keysAtTheLengthLimitOrSpelledLikeAHashStayValidAndDistinct() {
        String atLimit = "hybris/c/" + "x".repeat(MemcachedKeys.MAX_KEY_BYTES - 9);
        String overLimit = atLimit + "y";
        assertThat(MemcachedKeys.toMemcached(atLimit)).isEqualTo(atLimit);
        String hashed = MemcachedKeys.toMemcached(overLimit);
        assertThat(hashed).startsWith("sha256:").hasSize(7 + 64);
        // a key spelled like the hashed form of another must not share its entry
        assertThat(MemcachedKeys.toMemcached(hashed)).isNotEqualTo(hashed);
    }

    @Test
    void aSubSecondExpiryRoundsUpAndNeverMeansNoExpiry() {
        assertThat(MemcachedValueCache.seconds(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(MemcachedValueCache.seconds(Duration.ofMillis(400))).isEqualTo(1);
        assertThat(MemcachedValueCache.seconds(Duration.ofMillis(1000))).isEqualTo(1);
        assertThat(MemcachedValueCache.seconds(Duration.ofMillis(1001))).isEqualTo(2);
    }
}
