/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CacheSettings;
import io.hybris.Consistency;
import io.hybris.Hybris;
import io.hybris.ReadOptions;
import io.hybris.ReadSettings;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The weak consistency modes of the value cache (docs/cache.md) over a shared cache, two clients: a client's read of
 * its own write after another client deleted the key and its own delete found nothing, and reads of a cached chunked
 * value whose chunks went with its version ("no GET fails because of the cache").
 */
class WeakReadFallbackTest {
    private static final int CHUNK = 64 << 10;
    private static final String C = "docs";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final MapCache cache = new MapCache();
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId, CacheSettings.Builder cacheSettings) {
        return opened.open(OpenedClients.config(metadata, raw).clientId(clientId).deadline(Duration.ofSeconds(5))
                .reads(ReadSettings.builder().hedge(false).build()).chunkSize(CHUNK).chunkThreshold(CHUNK)
                .cache(cacheSettings.cache(cache).build()));
    }

    private Hybris open(String clientId) {
        return open(clientId, CacheSettings.builder().consistency(Consistency.READ_YOUR_WRITES));
    }

    /**
     * A client's own DELETE that found the key already deleted (by another client) is a no-op, and read-your-writes
     * still remembers this client's earlier PUT: the client deletes a key, then reads its old value back.
     */
    @Test
    void readYourWritesAfterOwnDeleteReturnsNothing() {
        Hybris a = open("alice");
        Hybris b = open("bob");
        a.put(C, "note", "draft".getBytes());
        await().atMost(Duration.ofSeconds(10)).until(() -> cache.entries.size() >= 1); // write-through landed
        b.delete(C, "note");

        a.delete(C, "note"); // completes normally: the key is gone

        assertThat(a.get(C, "note", ReadOptions.readYourWrites())).as("read after own completed delete").isEmpty();
    }

    /**
     * A read-your-writes read of a chunked value this client wrote, after another client overwrote it and the old
     * version's chunks were collected: the manifest comes from the cache, the chunks are gone, and the GET fails
     * instead of falling back to a linearizable read ("no GET fails because of the cache").
     */
    @Test
    void readYourWritesOfAChunkedValueOverwrittenByAnotherClientStillReads() {
        Hybris a = open("alice");
        Hybris b = open("bob");
        byte[] big = new byte[3 * CHUNK];
        new java.util.Random(3).nextBytes(big);
        a.put(C, "video", new ByteArrayInputStream(big), big.length);
        await().atMost(Duration.ofSeconds(10)).until(() -> cache.entries.size() >= 1); // the manifest is cached
        byte[] newer = "newer".getBytes();
        b.put(C, "video", newer); // supersedes alice's version; its manifest and chunks are collected

        // read-your-writes may return alice's own write or anything newer, but must return a value; alice's
        // default mode is read-your-writes, so a plain get goes the same way (and keeps failing: the own-write
        // record is never dropped by the failure)
        List<Throwable> failures = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> a.get(C, "video"));
            if (t != null) {
                failures.add(t);
            }
        }
        assertThat(failures).as("failed plain gets of 3").isEmpty();
    }

    /** The same with bounded staleness by time: an entry for a chunked value outlives the value's chunks. */
    @Test
    void boundedTimeReadOfAChunkedValueOverwrittenByAnotherClientStillReads() {
        CacheSettings.Builder delta = CacheSettings.builder().stalenessTime(Duration.ofMinutes(5));
        Hybris a = open("alice", delta);
        Hybris b = open("bob", CacheSettings.builder());
        byte[] big = new byte[3 * CHUNK];
        new java.util.Random(3).nextBytes(big);
        a.put(C, "video", new ByteArrayInputStream(big), big.length);
        await().atMost(Duration.ofSeconds(10)).until(() -> cache.entries.keySet().stream()
                .anyMatch(k -> k.endsWith("~time")));
        b.put(C, "video", "newer".getBytes());

        assertThat(a.get(C, "video", ReadOptions.boundedStalenessTime())).isPresent();
    }
}
