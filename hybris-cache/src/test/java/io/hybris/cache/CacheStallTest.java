/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.ReadOptions;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.Toxiproxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A memcached that hangs (requests arrive, no answer comes back, no connection closes): docs/cache.md promises that
 * no GET waits more than {@code hybris.cache.timeout} for the cache, in every consistency mode.
 */
@Timeout(90)
class CacheStallTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aWeakReadWaitsForAHungCacheOnlyOnceBeforeFallingBack() throws Exception {
        TestEnvironment env = TestEnvironment.require();
        Toxiproxy toxiproxy = new Toxiproxy(env.toxiproxyApi());
        Toxiproxy.Proxy proxy = toxiproxy.create("memcached-" + Long.toString(System.nanoTime(), 36),
                URI.create("tcp://" + env.memcachedAddress()));
        String servers = proxy.endpoint().getHost() + ":" + proxy.endpoint().getPort();
        try (CacheFixture fx = new CacheFixture(servers)) {
            Hybris h = fx.open("stall", CacheSettings.builder().type("memcached", Map.of("servers", servers,
                    "timeout", TIMEOUT.toMillis() + "ms")).stalenessTime(Duration.ofMinutes(5)).build());
            h.put("c", "k", bytes("v1"));
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                h.get("c", "k");
                return h.cacheStats().hits() > 0;
            });

            proxy.stall(true);
            for (ReadOptions mode : new ReadOptions[] {ReadOptions.linearizable(), ReadOptions.readYourWrites(),
                    ReadOptions.boundedStalenessTime()}) {
                long t0 = System.nanoTime();
                assertThat(h.get("c", "k", mode)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
                // one cache timeout plus in-memory clouds and metadata; two timeouts would be 2 s
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("GET %s", mode)
                        .isLessThan(TIMEOUT.multipliedBy(18).dividedBy(10));
            }
        } finally {
            proxy.delete();
        }
    }
}
