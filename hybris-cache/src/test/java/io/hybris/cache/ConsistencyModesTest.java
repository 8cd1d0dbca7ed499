/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.Hybris;
import io.hybris.InvalidRequestException;
import io.hybris.ReadOptions;
import io.hybris.testkit.MutableClock;
import io.hybris.testkit.TestEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Each weaker consistency mode's guarantee and its documented limit, against a real memcached. */
@Timeout(60)
class ConsistencyModesTest {
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

    private static String text(Optional<byte[]> v) {
        return v.map(b -> new String(b, StandardCharsets.UTF_8)).orElse("<absent>");
    }

    @Test
    void readYourWritesSeesOwnWritesFromTheCacheAndMayMissOtherClientsWrites() throws Exception {
        Hybris a = fx.open("ryw-a", fx.cache().build());
        Hybris b = fx.open("ryw-b", fx.cache().build());
        a.put("cart", "k", bytes("a1"));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> raw.get(fx.prefix + "cart/k#" + a.describe("cart", "k").orElseThrow().version())
                        .isPresent());
        b.put("cart", "k", bytes("b2"));
        fx.clouds.forEach(c -> c.reset());

        // guarantee: a sees its own write, served from the cache (no cloud read)
        assertThat(text(a.get("cart", "k", ReadOptions.readYourWrites()))).isEqualTo("a1");
        assertThat(fx.cloudGets()).isZero();
        // limit: that was stale; a linearizable read and another client's RYW read see b's newer write
        assertThat(text(a.get("cart", "k"))).isEqualTo("b2");
        assertThat(text(b.get("cart", "k", ReadOptions.readYourWrites()))).isEqualTo("b2");
        Hybris c = fx.open("ryw-c", fx.cache().build());
        assertThat(text(c.get("cart", "k", ReadOptions.readYourWrites()))).isEqualTo("b2"); // no own write: linearizable

        // a's own newer write and delete are seen at once
        a.put("cart", "k", bytes("a3"));
        assertThat(text(a.get("cart", "k", ReadOptions.readYourWrites()))).isEqualTo("a3");
        a.delete("cart", "k");
        assertThat(text(a.get("cart", "k", ReadOptions.readYourWrites()))).isEqualTo("<absent>");
    }

    @Test
    void readYourWritesFallsBackToALinearizableReadOnAMissOrAForgedEntry() throws Exception {
        Hybris a = fx.open("rywf-a", fx.cache().build());
        Hybris b = fx.open("rywf-b", fx.cache().build());
        a.put("cart", "k", bytes("a1"));
        String key = fx.prefix + "cart/k#" + a.describe("cart", "k").orElseThrow().version();
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(key).isPresent());
        b.put("cart", "k", bytes("b2"));
        raw.set(key, bytes("forged"));
        assertThat(text(a.get("cart", "k", ReadOptions.readYourWrites()))).isEqualTo("b2");
        assertThat(a.cacheStats().rejected()).isEqualTo(1);
    }

    @Test
    void boundedTimeReadsMayBeStaleButNeverOlderThanDelta() throws Exception {
        MutableClock clock = new MutableClock();
        Duration delta = Duration.ofSeconds(30);
        Hybris a = fx.open("dt-a", fx.cache().stalenessTime(delta).build(), b -> b.clock(clock));
        Hybris b = fx.open("dt-b", fx.cache().build(), x -> x.clock(clock)); // writes without maintaining Δ entries
        a.put("web", "k", bytes("v1"));
        String plain = fx.prefix + "web/k#~time";
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(plain).isPresent());
        b.put("web", "k", bytes("v2"));
        fx.clouds.forEach(c -> c.reset());

        // within Δ: the stale value, from the cache, without metadata or clouds
        clock.advance(delta.minusMillis(1));
        assertThat(text(a.get("web", "k", ReadOptions.boundedStalenessTime()))).isEqualTo("v1");
        assertThat(fx.cloudGets()).isZero();
        // beyond Δ (memcached still holds the entry: its expiry is whole seconds of real time): never served
        clock.advance(Duration.ofMillis(2));
        assertThat(raw.get(plain)).isPresent();
        assertThat(text(a.get("web", "k", ReadOptions.boundedStalenessTime()))).isEqualTo("v2");
        // that read refreshed the entry: the new value is served from the cache again
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(plain).map(v -> CachePoliciesTest.indexOf(v,
                bytes("v2")) >= 0).orElse(false));
        long hits = a.cacheStats().hits();
        assertThat(text(a.get("web", "k", ReadOptions.boundedStalenessTime()))).isEqualTo("v2");
        assertThat(a.cacheStats().hits()).isEqualTo(hits + 1);
    }

    @Test
    void boundedVersionsReadsReturnOneOfTheEtaNewestVersions() throws Exception {
        int eta = 3;
        Hybris w = fx.open("dv-w", fx.cache().stalenessVersions(eta).build());
        Hybris r = fx.open("dv-r", fx.cache().stalenessVersions(eta).build());
        String plain = fx.prefix + "idx/k#~versions";
        String lastCached = null;
        boolean sawStale = false;
        for (int v = 1; v <= 10; v++) {
            w.put("idx", "k", bytes("v" + v));
            if (v % eta == 0) { // the counter reached η: this version is cached under the plain key
                String want = "v" + v;
                await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(plain)
                        .map(e -> CachePoliciesTest.indexOf(e, bytes(want)) >= 0).orElse(false));
                lastCached = want;
            }
            String got = text(r.get("idx", "k", ReadOptions.boundedStalenessVersions()));
            int version = Integer.parseInt(got.substring(1));
            assertThat(version).as("read after writing v%d", v).isBetween(v - (eta - 1), v);
            if (lastCached != null) {
                assertThat(got).isEqualTo(lastCached);
            }
            sawStale |= version < v;
        }
        assertThat(sawStale).isTrue();
    }

    @Test
    void modesThatAreNotConfiguredAreRejected() {
        Hybris h = fx.open("nm", fx.cache().build());
        h.put("c", "k", bytes("v"));
        assertThatThrownBy(() -> h.get("c", "k", ReadOptions.boundedStalenessTime()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("hybris.cache.staleness.time");
        assertThatThrownBy(() -> h.get("c", "k", ReadOptions.boundedStalenessVersions()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("hybris.cache.staleness.versions");
    }
}
