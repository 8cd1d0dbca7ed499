/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A migration onto a cloud that refuses writes (docs/scrub.md): every key is handled and reported, the run ends with
 * a report, and nothing is lost.
 */
class MigrateToRefusingCloudTest {
    private static final int CHUNK = 64 << 10;
    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(List<? extends CloudStore> clouds) {
        return opened.open(OpenedClients.config(store, clouds).deadline(Duration.ofSeconds(3)).chunkThreshold(CHUNK)
                .chunkSize(CHUNK));
    }

    @Test
    void aMigrationOntoACloudRefusingWritesReportsEveryKeyAndLosesNothing() {
        Hybris writer = open(raw);
        byte[] big = new byte[2 * CHUNK + 10];
        writer.put("c", "a-big", new ByteArrayInputStream(big), big.length);
        writer.put("c", "b-small", "small".getBytes());
        AtomicBoolean refusing = new AtomicBoolean(true);
        CloudStore to = new ForwardingCloudStore(raw.get(2)) {
            @Override
            public void put(String objectKey, byte[] value) {
                if (refusing.get()) {
                    throw new TransientCloudException(id(), "injected: refuses writes");
                }
                super.put(objectKey, value);
            }
        };
        Hybris migrating = open(List.of(raw.get(0), raw.get(1), to));
        Map<String, KeyHealth> seen = new ConcurrentHashMap<>();

        ScrubReport r = migrating.migrate("c1", "c2", ScrubOptions.listing().listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                seen.put(health.key(), health);
            }
        }));

        assertThat(seen).containsKeys("a-big", "b-small");
        assertThat(seen.get("a-big").status()).isEqualTo(KeyHealth.Status.DEGRADED);
        assertThat(r.degraded()).isEqualTo(2);
        assertThat(writer.get("c", "a-big")).hasValueSatisfying(v -> assertThat(v).isEqualTo(big));
        assertThat(writer.get("c", "b-small")).hasValueSatisfying(v -> assertThat(new String(v)).isEqualTo("small"));
    }
}
