/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.testkit.TestEnvironment;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.rubyeye.xmemcached.utils.AddrUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link MemcachedValueCache} against the test memcached (run with {@code -I 16m}), below the Hybris cache layer. */
@Timeout(30)
class MemcachedValueCacheTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static MemcachedValueCache open() throws Exception {
        String address = TestEnvironment.require().memcachedAddress();
        XMemcachedClientBuilder builder = new XMemcachedClientBuilder(AddrUtil.getAddresses(address));
        builder.setTranscoder(RawBytesTranscoder.INSTANCE);
        return new MemcachedValueCache(builder.build(), address, Duration.ofSeconds(5), 16L << 20);
    }

    private static String key(String name) {
        return "t" + Long.toString(System.nanoTime(), 36) + "/" + name;
    }

    @Test
    void putIfAbsentNeverReplacesAnEntry() throws Exception {
        try (MemcachedValueCache cache = open()) {
            String key = key("absent");
            assertThat(cache.putIfAbsent(key, bytes("first"), Duration.ofMinutes(1))).isTrue();
            assertThat(cache.putIfAbsent(key, bytes("second"), Duration.ofMinutes(1))).isFalse();
            assertThat(cache.get(key)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("first")));
            cache.delete(key);
        }
    }
}
