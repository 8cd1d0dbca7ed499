/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.ReadOptions;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.ValueCache;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.crypto.SecretKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/cache.md, "What a malicious cache can do in the weak modes": whoever controls memcached can forge a
 * self-consistent bounded-staleness entry for a <em>plaintext</em> value, but "with {@code envelope} encryption a
 * forged entry fails authenticated decryption (a miss)" — only an old genuine entry can be replayed. A forged entry
 * whose embedded metadata simply claims the value is not encrypted (no data-key record) needs no key at all: the
 * bounded-staleness read of an envelope-encrypting client returned the forger's bytes as the value.
 */
class ForgedWeakReadEntryTest {
    private static final String C = "docs";
    private static final byte[] SECRET = "the value this deployment committed".getBytes(StandardCharsets.UTF_8);
    private static final byte[] FORGED = "bytes the cache's owner made up".getBytes(StandardCharsets.UTF_8);
    private final SecretKey kek = EnvelopeKeyProvider.generateKek();
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId, ValueCache cache, boolean encrypted) {
        var b = OpenedClients.config(new InMemoryMetadataStore(), OpenedClients.inMemoryClouds(3)).clientId(clientId)
                .deadline(Duration.ofSeconds(20))
                .cache(CacheSettings.builder().stalenessTime(Duration.ofMinutes(5)).cache(cache).build());
        if (encrypted) {
            b.encryption(EnvelopeKeyProvider.of(Map.of("k1", kek), "k1"));
        }
        return opened.open(b);
    }

    private static String timeEntry(MapCache cache) {
        await().atMost(Duration.ofSeconds(20)).until(() -> cache.entries.keySet().stream()
                .anyMatch(k -> k.endsWith("~time")));
        return cache.entries.keySet().stream().filter(k -> k.endsWith("~time")).findFirst().orElseThrow();
    }

    @Test
    void aForgedPlaintextEntryIsNotServedToAnEnvelopeEncryptingClient() {
        MapCache memcached = new MapCache();
        Hybris victim = open("victim", memcached, true);
        victim.put(C, "note", SECRET);
        String key = timeEntry(memcached);
        assertThat(victim.get(C, "note", ReadOptions.boundedStalenessTime())).hasValue(SECRET);

        // the cache's owner builds a self-consistent entry for the same cache key (here with a Hybris client of
        // its own, plaintext, same prefix, its own metadata and clouds) and writes it over the genuine one
        MapCache scratch = new MapCache();
        Hybris forger = open("forger", scratch, false);
        forger.put(C, "note", FORGED);
        String forgedKey = timeEntry(scratch);
        assertThat(forgedKey).isEqualTo(key);
        memcached.entries.put(key, new ValueCache.Versioned(scratch.entries.get(forgedKey).value(), 1_000_000));

        Optional<byte[]> read = victim.get(C, "note", ReadOptions.boundedStalenessTime());
        assertThat(read).as("a forged entry must be a miss for an envelope-encrypting client (docs/cache.md)")
                .hasValueSatisfying(v -> assertThat(new String(v, StandardCharsets.UTF_8))
                        .isEqualTo(new String(SECRET, StandardCharsets.UTF_8)));
    }

    /** The same with a forged deletion: a tombstone entry has no ciphertext to authenticate, so it needs no key. */
    @Test
    void aForgedDeletionIsNotServedToAnEnvelopeEncryptingClient() {
        MapCache memcached = new MapCache();
        Hybris victim = open("victim", memcached, true);
        victim.put(C, "note", SECRET);
        String key = timeEntry(memcached);

        MapCache scratch = new MapCache();
        Hybris forger = open("forger", scratch, false);
        forger.put(C, "note", FORGED);
        timeEntry(scratch);
        byte[] live = scratch.entries.get(key).value();
        forger.delete(C, "note");
        await().atMost(Duration.ofSeconds(20)).until(() -> !java.util.Arrays.equals(scratch.entries.get(key).value(),
                live));
        memcached.entries.put(key, new ValueCache.Versioned(scratch.entries.get(key).value(), 1_000_000));

        assertThat(victim.get(C, "note", ReadOptions.boundedStalenessTime()))
                .as("a forged tombstone must be a miss for an envelope-encrypting client (docs/cache.md)")
                .hasValueSatisfying(v -> assertThat(new String(v, StandardCharsets.UTF_8))
                        .isEqualTo(new String(SECRET, StandardCharsets.UTF_8)));
    }
}
