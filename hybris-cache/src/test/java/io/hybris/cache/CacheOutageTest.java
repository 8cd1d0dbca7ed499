/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.Hybris;
import io.hybris.ReadOptions;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.Toxiproxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A memcached that is down at start or goes away mid-run only costs cache hits, never a failed call. */
@Timeout(90)
class CacheOutageTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aClosedPortAtStartDegradesToCloudReads() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (CacheFixture fx = new CacheFixture("127.0.0.1:" + port)) {
            Hybris h = fx.open("down", fx.cache().stalenessTime(Duration.ofSeconds(5)).build());
            h.put("c", "k", bytes("v1"));
            assertThat(h.get("c", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
            assertThat(h.get("c", "k", ReadOptions.boundedStalenessTime()))
                    .hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
            assertThat(h.get("c", "k", ReadOptions.readYourWrites()))
                    .hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
            assertThat(fx.cloudGets()).isEqualTo(3);
            assertThat(h.cacheStats().hits()).isZero();
            assertThat(h.cacheStats().errors()).isGreaterThanOrEqualTo(4);
        }
    }

    @Test
    void memcachedCutMidRunDegradesToCloudReadsAndRecovers() throws Exception {
        TestEnvironment env = TestEnvironment.require();
        Toxiproxy toxiproxy = new Toxiproxy(env.toxiproxyApi());
        Toxiproxy.Proxy proxy = toxiproxy.create("memcached-" + Long.toString(System.nanoTime(), 36),
                URI.create("tcp://" + env.memcachedAddress()));
        try (CacheFixture fx = new CacheFixture(proxy.endpoint().getHost() + ":" + proxy.endpoint().getPort())) {
            Hybris h = fx.open("cut", fx.cache().build());
            h.put("c", "k", bytes("v1"));
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                h.get("c", "k");
                return h.cacheStats().hits() > 0;
            });
            long cloudGets = fx.cloudGets();

            proxy.disable();
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                assertThat(h.get("c", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
            }
            assertThat(fx.cloudGets()).isEqualTo(cloudGets + 5);
            assertThat(h.cacheStats().errors()).isGreaterThanOrEqualTo(5);

            proxy.enable();
            long hits = h.cacheStats().hits();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                h.get("c", "k");
                return h.cacheStats().hits() > hits;
            });
        } finally {
            proxy.delete();
        }
    }
}
