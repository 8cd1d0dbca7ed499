/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.ReadSettings;
import io.hybris.SweepReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the orphan sweep deletes of a key's current version: a copy on a cloud its metadata does not list (a
 * migration's leftover), once older than the grace period, and nothing that metadata references — the value's copies
 * on the clouds it lists and every chunk of a current chunked value, however old.
 */
class SweepVerdictsTest {
    private static final int CHUNK = 64 << 10;
    private static final Duration GRACE = Duration.ofHours(1);
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3, clock);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open() {
        return opened.open(OpenedClients.config(metadata, raw).deadline(Duration.ofSeconds(5))
                .reads(ReadSettings.builder().hedge(false).build()).chunkSize(CHUNK).chunkThreshold(CHUNK)
                .sweepInterval(Duration.ZERO).clock(clock).gcGrace(GRACE));
    }

    @Test
    void aCopyOfTheCurrentVersionOnACloudItsMetadataDoesNotListIsSweptOnceOlderThanTheGrace() {
        Hybris h = open();
        byte[] value = "current".getBytes();
        assertThat(h.put("c", "k", value).clouds()).containsExactly("c0", "c1");
        String name = raw.get(0).list("hybris/").get(0).key();
        raw.get(2).put(name, value); // a leftover of the current version on c2 (say, a migration's)

        assertThat(h.sweepOrphans().deleted()).as("too young").isZero();
        clock.advance(GRACE.plusMinutes(1));
        SweepReport swept = h.sweepOrphans();

        assertThat(swept.deleted()).isEqualTo(1);
        assertThat(swept.referenced()).isEqualTo(2);
        assertThat(raw.get(2).list("hybris/")).isEmpty();
        assertThat(raw.get(0).get(name, 1 << 20)).hasValue(value);
        assertThat(raw.get(1).get(name, 1 << 20)).hasValue(value);
    }

    /**
     * The chunks land on c0 and c1, the manifest on c0 and c2 (c1 refuses it): the chunks on c1, a cloud the
     * metadata does not list, are the current version's all the same.
     */
    @Test
    void everyChunkOfACurrentChunkedValueSurvivesASweepHoweverOld() {
        CloudStore c1 = new ForwardingCloudStore(raw.get(1)) {
            @Override
            public void put(String objectKey, byte[] value) {
                if (!objectKey.contains("#c")) {
                    throw new TransientCloudException(id(), "injected: refuses all but chunks");
                }
                super.put(objectKey, value);
            }
        };
        Hybris writer = opened.open(OpenedClients.config(metadata, List.of(raw.get(0), c1, raw.get(2)))
                .deadline(Duration.ofSeconds(5)).chunkSize(CHUNK).chunkThreshold(CHUNK).sweepInterval(Duration.ZERO)
                .clock(clock).gcGrace(GRACE));
        Hybris h = open();
        byte[] big = new byte[3 * CHUNK + 7];
        new Random(7).nextBytes(big);
        assertThat(writer.put("c", "big", new ByteArrayInputStream(big), big.length).clouds())
                .containsExactlyInAnyOrder("c0", "c2");
        assertThat(raw.get(1).list("hybris/")).as("chunks on c1").hasSize(4);
        long stored = raw.stream().mapToLong(c -> c.list("hybris/").size()).sum();
        clock.advance(GRACE.multipliedBy(3));

        SweepReport swept = h.sweepOrphans();

        assertThat(swept.deleted()).isZero();
        assertThat(swept.referenced()).isEqualTo((int) stored);
        assertThat(raw.stream().mapToLong(c -> c.list("hybris/").size()).sum()).isEqualTo(stored);
        assertThat(h.get("c", "big")).hasValueSatisfying(v -> assertThat(v).isEqualTo(big));
    }
}
