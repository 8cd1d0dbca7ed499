/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.CacheStats;
import io.hybris.Hybris;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.testkit.TestEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Write-through and fill-on-read against a real memcached: hits, misses, verification, bypass, ciphertext only. */
@Timeout(60)
class CachePoliciesTest {
    private CacheFixture fx;
    private RawMemcached raw;

    @BeforeEach
    void setUp() throws Exception {
        fx = new CacheFixture();
        raw = new RawMemcached(TestEnvironment.require().memcachedAddress());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (fx != null) {
            fx.close();
        }
        if (raw != null) {
            raw.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The cache key of {@code key}'s current version: its object name, whose version part only metadata knows. */
    private String versionKey(Hybris h, String container, String key) {
        return fx.prefix + container + "/" + key + "#" + h.describe(container, key).orElseThrow().version();
    }

    @Test
    void writeThroughServesTheFirstGetFromTheCacheWithoutTouchingAnyCloud() throws Exception {
        Hybris h = fx.open("w1", fx.cache().fillOnRead(false).build());
        h.put("box", "k", bytes("hello"));
        String key = versionKey(h, "box", "k");
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(key).isPresent());
        assertThat(raw.get(key)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("hello")));
        fx.clouds.forEach(c -> c.reset());

        assertThat(h.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("hello")));
        assertThat(fx.cloudGets()).isZero();
        CacheStats s = h.cacheStats();
        assertThat(s.hits()).isEqualTo(1);
        assertThat(s.misses()).isZero();
    }

    @Test
    void fillOnReadCachesAfterTheFirstCloudRead() throws Exception {
        Hybris h = fx.open("r1", fx.cache().writeThrough(false).build());
        h.put("box", "k", bytes("v1"));
        String key = versionKey(h, "box", "k");
        assertThat(raw.get(key)).isEmpty(); // no write-through

        assertThat(h.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
        assertThat(fx.cloudGets()).isEqualTo(1);
        assertThat(h.cacheStats().misses()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(key).isPresent());

        assertThat(h.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
        assertThat(fx.cloudGets()).isEqualTo(1);
        assertThat(h.cacheStats().hits()).isEqualTo(1);
    }

    @Test
    void bothPoliciesOffLeaveTheCacheEmpty() throws Exception {
        Hybris h = fx.open("n1", fx.cache().writeThrough(false).fillOnRead(false).build());
        h.put("box", "k", bytes("v1"));
        for (int i = 0; i < 3; i++) {
            assertThat(h.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
        }
        assertThat(fx.cloudGets()).isEqualTo(3);
        assertThat(h.cacheStats()).isEqualTo(new CacheStats(0, 3, 0, 0, 0, 0));
        assertThat(raw.get(versionKey(h, "box", "k"))).isEmpty();
    }

    @Test
    void aNewVersionIsNeverServedFromTheOldVersionsEntry() throws Exception {
        Hybris h = fx.open("v1", fx.cache().build());
        h.put("box", "k", bytes("old"));
        String oldKey = versionKey(h, "box", "k");
        assertThat(h.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("old")));
        h.put("box", "k", bytes("new"));
        assertThat(h.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("new")));
        assertThat(raw.get(oldKey)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("old")));
    }

    @Test
    void wrongBytesInTheCacheAreRejectedEvictedAndTheCloudValueReturned() throws Exception {
        Hybris h = fx.open("x1", fx.cache().fillOnRead(false).build());
        h.put("box", "k", bytes("the real value"));
        String key = versionKey(h, "box", "k");
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(key).isPresent());
        raw.set(key, bytes("a forged value"));
        fx.clouds.forEach(c -> c.reset());

        assertThat(h.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("the real value")));
        assertThat(fx.cloudGets()).isEqualTo(1);
        CacheStats s = h.cacheStats();
        assertThat(s.rejected()).isEqualTo(1);
        assertThat(s.hits()).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(key).isEmpty());
    }

    @Test
    void valuesAboveTheItemLimitBypassTheCache() throws Exception {
        Hybris h = fx.open("b1", io.hybris.CacheSettings.builder().type("memcached",
                Map.of("servers", fx.memcached, "max-item-size", "64KiB")).build());
        byte[] big = new byte[100_000];
        Arrays.fill(big, (byte) 7);
        h.put("box", "big", big);
        assertThat(h.get("box", "big")).hasValueSatisfying(v -> assertThat(v).isEqualTo(big));
        assertThat(h.get("box", "big")).hasValueSatisfying(v -> assertThat(v).isEqualTo(big));
        assertThat(fx.cloudGets()).isEqualTo(2);
        assertThat(h.cacheStats().bypassed()).isEqualTo(3); // write-through, two fills
        assertThat(h.cacheStats().hits() + h.cacheStats().misses()).isZero();
        assertThat(raw.get(versionKey(h, "box", "big"))).isEmpty();
    }

    @Test
    void encryptedValuesReachTheCacheOnlyAsCiphertext() throws Exception {
        byte[] marker = bytes("PLAINTEXT-MARKER-d41d8cd98f00b204");
        Hybris meta = fx.open("e1", fx.cache().stalenessTime(Duration.ofMinutes(5)).stalenessVersions(1).build(),
                b -> b.encryption(new MetadataKeyProvider()));
        Hybris env = fx.open("e2", fx.cache().stalenessTime(Duration.ofMinutes(5)).stalenessVersions(1).build(),
                b -> b.encryption(EnvelopeKeyProvider.of(Map.of("kek1", EnvelopeKeyProvider.generateKek()), "kek1")));
        meta.put("box", "a", marker);
        env.put("box", "b", marker);
        assertThat(meta.get("box", "a")).hasValueSatisfying(v -> assertThat(v).isEqualTo(marker));
        assertThat(env.get("box", "b")).hasValueSatisfying(v -> assertThat(v).isEqualTo(marker));
        // envelope mode: bounded-staleness entries exist (wrapped data key); metadata mode: never (key in the clear)
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(fx.prefix + "box/b#~time").isPresent()
                && raw.get(fx.prefix + "box/b#~versions").isPresent()
                && raw.get(versionKey(meta, "box", "a")).isPresent()
                && raw.get(versionKey(env, "box", "b")).isPresent());
        assertThat(raw.get(fx.prefix + "box/a#~time")).isEmpty();
        assertThat(raw.get(fx.prefix + "box/a#~versions")).isEmpty();

        // the LRU crawler's dump may lag the newest items by a moment: scan until it lists all four
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            int scanned = 0;
            for (String k : raw.keys()) {
                if (!k.startsWith(fx.prefix)) {
                    continue;
                }
                byte[] v = raw.get(k).orElse(new byte[0]);
                assertThat(indexOf(v, marker)).as("plaintext in cache entry %s", k).isEqualTo(-1);
                scanned++;
            }
            assertThat(scanned).isEqualTo(4); // a#1, b#1, b~time, b~versions
        });
        assertThat(env.get("box", "b", io.hybris.ReadOptions.boundedStalenessTime()))
                .hasValueSatisfying(v -> assertThat(v).isEqualTo(marker));
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
