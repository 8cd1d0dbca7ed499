/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A sweep never touches another deployment nested under its prefix or sharing its prefix's start. */
class SweepOtherDeploymentsTest {
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String prefix, Duration grace) {
        return opened.open(OpenedClients.config(new InMemoryMetadataStore(), raw).objectPrefix(prefix)
                .deadline(Duration.ofSeconds(5)).gcGrace(grace).chunkSize(64 << 10).chunkThreshold(64 << 10));
    }

    @Test
    void nestedAndSiblingDeploymentsSurviveASweepWithGraceZero() {
        Hybris outer = open("hybris/", Duration.ZERO);
        Hybris nested = open("hybris/tenant/", Duration.ofHours(1));
        Hybris sibling = open("hybris-b/", Duration.ofHours(1));
        byte[] big = new byte[200 << 10];
        for (Hybris h : List.of(nested, sibling)) {
            h.put("photos", "cat.jpg", "meow".getBytes());
            h.put("tenant", "big", new ByteArrayInputStream(big), big.length);
        }
        outer.sweepOrphans();
        for (Hybris h : List.of(nested, sibling)) {
            assertThat(h.get("photos", "cat.jpg")).isPresent();
            assertThat(h.get("tenant", "big")).hasValueSatisfying(v -> assertThat(v).isEqualTo(big));
        }
    }
}
