/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.ReadSettings;
import io.hybris.SweepReport;
import io.hybris.ValueStream;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code hybris.get.superseded-retention}, a writer leaves the version it replaced for that long, so streams of
 * it under way finish. The orphan sweep deleted superseded versions at once, retention or not: a sweep (periodic, or
 * any client's) right after an overwrite broke the streams the retention was there for. The sweep now keeps a
 * superseded version while the key's current version is younger than its client's retention (by the clouds' clocks).
 */
class SweepKeepsRetainedVersionTest {
    private static final int CHUNK = 64 << 10;
    private static final int L = 4 * CHUNK + 5;
    private final MutableClock clouds = new MutableClock();
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3, clouds);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId, Duration retention) {
        return opened.open(OpenedClients.config(metadata, raw).clientId(clientId).deadline(Duration.ofSeconds(10))
                .reads(ReadSettings.builder().hedge(false).supersededRetention(retention).build())
                .chunkSize(CHUNK).chunkThreshold(CHUNK).chunkReadAhead(1).sweepInterval(Duration.ZERO)
                .clock(clouds).gcGrace(Duration.ofHours(1)));
    }

    private static byte[] value(int size, long seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    private List<String> objects() {
        return raw.stream().flatMap(c -> c.list("").stream()).map(CloudObject::key).sorted().toList();
    }

    @Test
    void aSweepRightAfterAnOverwriteLeavesTheRetainedVersionToStreamsUnderWay() throws Exception {
        Hybris writer = open("w1", Duration.ofMinutes(10));
        Hybris reader = open("r1", Duration.ZERO);
        byte[] old = value(L, 1);
        writer.put("media", "k", new ByteArrayInputStream(old), L);
        List<String> oldObjects = objects();
        assertThat(oldObjects).as("5 chunks and the manifest on f+1 clouds").hasSize(12);
        try (ValueStream s = reader.getStream("media", "k").orElseThrow()) {
            byte[] head = s.readNBytes(CHUNK + 10);
            writer.put("media", "k", new ByteArrayInputStream(value(L, 2)), L);
            clouds.advance(Duration.ofMinutes(1));

            SweepReport swept = writer.sweepOrphans();

            assertThat(swept.deleted()).as("the replaced version, within the retention").isZero();
            assertThat(objects()).containsAll(oldObjects).hasSize(24);
            byte[] rest = s.readAllBytes();
            byte[] all = new byte[head.length + rest.length];
            System.arraycopy(head, 0, all, 0, head.length);
            System.arraycopy(rest, 0, all, head.length, rest.length);
            assertThat(all).as("the stream of the replaced version, read to its end").isEqualTo(old);
        }
        clouds.advance(Duration.ofMinutes(10)); // the retention has passed on the clouds' clocks
        assertThat(writer.sweepOrphans().deleted()).isEqualTo(12);
        assertThat(objects()).hasSize(12).doesNotContainAnyElementsOf(oldObjects);
    }

    @Test
    void aClientWithoutRetentionStillDeletesSupersededVersionsAtOnce() {
        Hybris writer = open("w1", Duration.ofMinutes(10));
        Hybris sweeper = open("s1", Duration.ZERO);
        writer.put("media", "k", new ByteArrayInputStream(value(L, 1)), L);
        List<String> oldObjects = objects();
        writer.put("media", "k", new ByteArrayInputStream(value(L, 2)), L);

        assertThat(sweeper.sweepOrphans().deleted()).isEqualTo(12);
        assertThat(objects()).hasSize(12).doesNotContainAnyElementsOf(oldObjects);
    }
}
