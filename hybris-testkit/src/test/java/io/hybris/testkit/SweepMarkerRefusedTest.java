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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The orphan sweep ages objects on each cloud's own clock, read from a marker object it stores before listing the
 * cloud. A cloud that refused the marker (a transient failure of that one put) had its objects aged by the sweeping
 * client's clock instead: a sweeper whose clock ran ahead of the clouds' by the grace period deleted the copy a put
 * in progress had just stored there, and the put then committed listing that copy, so the acknowledged value had
 * one copy of the two its metadata lists. Nothing on a cloud without a marker is aged now.
 */
class SweepMarkerRefusedTest {
    private static final Duration GRACE = Duration.ofHours(1);
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final MutableClock clouds = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3, clouds);
    private final OpenedClients opened = new OpenedClients();
    private final GatedCloudStore slow = GatedCloudStore.of(raw.get(1), n -> n.contains("/k#"));

    @AfterEach
    void close() {
        slow.open();
        opened.close();
    }

    /** A cloud that refuses the sweep's clock markers (and takes every other call). */
    private static final class RefusesMarkers extends ForwardingCloudStore {
        RefusesMarkers(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public void put(String objectKey, byte[] value) {
            if (objectKey.contains(".probe/sweep-")) {
                throw new TransientCloudException(id(), "put of '" + objectKey + "' failed (injected)");
            }
            super.put(objectKey, value);
        }
    }

    private Hybris open(String clientId, Clock clock, List<CloudStore> cs) {
        return opened.open(OpenedClients.config(metadata, cs).clientId(clientId).deadline(Duration.ofSeconds(20))
                .timerInitial(Duration.ofSeconds(10)).timerMin(Duration.ofSeconds(10))
                .reads(ReadSettings.builder().hedge(false).build()).sweepInterval(Duration.ZERO).clock(clock)
                .gcGrace(GRACE));
    }

    /** Clock of a client that reads {@code offset} from the clouds' clock (moves with it). */
    private Clock skewed(Duration offset) {
        return Clock.offset(clouds, offset);
    }

    @Test
    void aCloudThatRefusesTheMarkerHasNothingAgedByTheSweepersClock() throws Exception {
        CloudStore c0 = new RefusesMarkers(raw.get(0));
        Hybris writer = open("writer", clouds, List.of(c0, slow, raw.get(2)));
        Hybris sweeper = open("sweeper", skewed(GRACE.plusMinutes(30)), List.of(c0, raw.get(1), raw.get(2)));
        byte[] value = "acknowledged".getBytes();

        // a put in progress: its copy is on c0, the one on c1 still on the wire
        CompletableFuture<?> put = CompletableFuture.runAsync(() -> writer.put("media", "k", value));
        assertThat(slow.awaitBlocked(1, WAIT)).isTrue();
        await().atMost(WAIT).until(() -> raw.get(0).list("").stream().anyMatch(o -> o.key().contains("/k#")));

        SweepReport swept = sweeper.sweepOrphans(); // c0 refuses the marker; the sweeper's clock is 90 min ahead

        slow.open();
        put.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        // f=1: the acknowledged value survives any one cloud down; here c1, one of the two it is listed on
        Hybris reader = opened.open(OpenedClients.config(metadata, List.of(raw.get(0),
                UnavailableCloudStore.of(raw.get(1)), raw.get(2))).clientId("reader").deadline(Duration.ofSeconds(3)));
        assertThat(reader.get("media", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
        assertThat(swept.deleted()).as("a copy stored a moment ago by the clouds' clocks").isZero();
    }
}
