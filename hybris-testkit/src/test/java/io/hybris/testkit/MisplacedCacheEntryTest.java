/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.ReadOptions;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.ValueCache;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/cache.md, "What a malicious cache can do in the weak modes": a plain-key entry carries the name it belongs
 * to, which catches misplaced entries. A genuine bounded-staleness entry of one key copied to another key's slot
 * must be a miss there (the read falls back to a linearizable one), not serve the first key's value as the second's.
 */
class MisplacedCacheEntryTest {
    private static final String C = "docs";
    private static final byte[] A = "the value of key a".getBytes(StandardCharsets.UTF_8);
    private static final byte[] B = "the value of key b".getBytes(StandardCharsets.UTF_8);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(ValueCache cache, boolean encrypted) {
        var b = OpenedClients.config(new InMemoryMetadataStore(), OpenedClients.inMemoryClouds(3)).clientId("w1")
                .deadline(Duration.ofSeconds(20))
                .cache(CacheSettings.builder().stalenessTime(Duration.ofMinutes(5)).cache(cache).build());
        if (encrypted) {
            b.encryption(EnvelopeKeyProvider.of(Map.of("k1", EnvelopeKeyProvider.generateKek()), "k1"));
        }
        return opened.open(b);
    }

    private static String timeEntryOf(MapCache cache, String key) {
        await().atMost(Duration.ofSeconds(20)).until(() -> cache.entries.keySet().stream()
                .anyMatch(k -> k.endsWith(key + "#~time")));
        return cache.entries.keySet().stream().filter(k -> k.endsWith(key + "#~time")).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void anEntryCopiedToAnotherKeysSlotIsAMiss(boolean encrypted) {
        MapCache memcached = new MapCache();
        Hybris h = open(memcached, encrypted);
        h.put(C, "a", A);
        h.put(C, "b", B);
        String slotA = timeEntryOf(memcached, "a");
        String slotB = timeEntryOf(memcached, "b");
        assertThat(slotA).isNotEqualTo(slotB);
        assertThat(h.get(C, "b", ReadOptions.boundedStalenessTime())).hasValue(B);

        memcached.entries.put(slotB, new ValueCache.Versioned(memcached.entries.get(slotA).value(), 1_000_000));

        assertThat(h.get(C, "b", ReadOptions.boundedStalenessTime())).as("key a's entry in key b's slot")
                .hasValueSatisfying(v -> assertThat(new String(v, StandardCharsets.UTF_8))
                        .isEqualTo(new String(B, StandardCharsets.UTF_8)));
    }
}
