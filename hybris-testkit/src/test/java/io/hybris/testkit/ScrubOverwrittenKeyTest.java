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
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key written after the scrub listed the clouds, and overwritten (its copies collected) after the scrub read its
 * metadata page: the scrub finds no copy of the version it read. It reported the key UNRECOVERABLE (an ERROR log
 * line) although it was only superseded; it now reads the metadata again and reports SUPERSEDED (docs/scrub.md).
 */
class ScrubOverwrittenKeyTest {
    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId, MetadataStore metadata) {
        return opened.open(OpenedClients.config(metadata, raw).clientId(clientId).deadline(Duration.ofSeconds(5)));
    }

    @Test
    void aKeyOverwrittenWhileTheScrubRunsIsNotReportedUnrecoverable() {
        Hybris writer = open("writer", store);
        writer.put("c", "other", "x".getBytes());
        AtomicBoolean armed = new AtomicBoolean(true);
        MetadataStore timed = new ForwardingMetadataStore(store) {
            @Override
            public MetadataPage list(String container, String prefix, String startAfter, int limit) {
                if (!armed.getAndSet(false)) {
                    return super.list(container, prefix, startAfter, limit);
                }
                writer.put("c", "hot", "v1".getBytes()); // after the scrub's cloud listing
                MetadataPage page = super.list(container, prefix, startAfter, limit);
                writer.put("c", "hot", "v2".getBytes()); // v1 superseded and collected
                return page;
            }
        };
        Hybris scrubber = open("scrubber", timed);
        Map<String, KeyHealth> seen = new ConcurrentHashMap<>();
        ScrubReport r = scrubber.scrub(ScrubOptions.listing().repair(true).listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                seen.put(health.key(), health);
            }
        }));

        assertThat(writer.get("c", "hot")).hasValueSatisfying(v -> assertThat(new String(v)).isEqualTo("v2"));
        assertThat(seen.get("hot").status()).as(seen.get("hot").toString()).isNotEqualTo(KeyHealth.Status.UNRECOVERABLE);
        assertThat(r.unrecoverable()).isZero();
    }
}
