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
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An encrypting client takes as a miss every bounded-staleness entry whose value no KEK seals (a deletion, a value in
 * chunks: docs/cache.md, {@link ForgedWeakReadEntryTest}). It used to write such entries all the same after its own
 * writes, a cache write (a chunked value's whole manifest) that no read of its could use. It now evicts the key's
 * entry instead, as it does for a data key kept in metadata, and counts the value bypassed.
 */
class UnservableWeakEntriesNotWrittenTest {
    private static final String C = "docs";
    private static final int CHUNK = 64 << 10;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final OpenedClients opened = new OpenedClients();
    private final MapCache memcached = new MapCache();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open() {
        return opened.open(OpenedClients.config(new InMemoryMetadataStore(), OpenedClients.inMemoryClouds(3))
                .deadline(WAIT).chunkSize(CHUNK).chunkThreshold(CHUNK)
                .encryption(EnvelopeKeyProvider.of(Map.of("k1", EnvelopeKeyProvider.generateKek()), "k1"))
                .cache(CacheSettings.builder().stalenessTime(Duration.ofMinutes(5)).cache(memcached).build()));
    }

    private String timeEntryOf(String key) {
        await().atMost(WAIT).until(() -> memcached.entries.keySet().stream()
                .anyMatch(k -> k.endsWith("~time") && k.contains(key)));
        return memcached.entries.keySet().stream().filter(k -> k.endsWith("~time") && k.contains(key)).findFirst()
                .orElseThrow();
    }

    @Test
    void aDeletionEvictsTheKeysEntryInsteadOfWritingATombstone() {
        Hybris h = open();
        byte[] value = "sealed under k1".getBytes(StandardCharsets.UTF_8);
        h.put(C, "note", value);
        String entry = timeEntryOf("note");
        ValueCache.Versioned sealed = memcached.entries.get(entry);
        assertThat(h.get(C, "note", ReadOptions.boundedStalenessTime())).hasValue(value);
        long bypassedBefore = h.cacheStats().bypassed();

        h.delete(C, "note");

        await().atMost(WAIT).until(() -> memcached.entries.get(entry) != sealed);
        assertThat(memcached.entries).as("no tombstone entry the client would refuse").doesNotContainKey(entry);
        assertThat(h.cacheStats().bypassed()).isEqualTo(bypassedBefore + 1);
        assertThat(h.get(C, "note", ReadOptions.boundedStalenessTime())).isEmpty();
    }

    @Test
    void aValueInChunksEvictsTheKeysEntryInsteadOfWritingItsManifest() {
        Hybris h = open();
        byte[] small = "sealed whole".getBytes(StandardCharsets.UTF_8);
        h.put(C, "big", small);
        String entry = timeEntryOf("big");
        ValueCache.Versioned whole = memcached.entries.get(entry);
        long bypassedBefore = h.cacheStats().bypassed();
        byte[] large = new byte[3 * CHUNK + 5];
        new java.util.Random(7).nextBytes(large);

        h.put(C, "big", new ByteArrayInputStream(large), large.length);

        await().atMost(WAIT).until(() -> memcached.entries.get(entry) != whole);
        assertThat(memcached.entries).as("no entry for the chunked value").doesNotContainKey(entry);
        assertThat(h.cacheStats().bypassed()).isEqualTo(bypassedBefore + 1);
        assertThat(h.get(C, "big", ReadOptions.boundedStalenessTime())).hasValue(large);
    }
}
