/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A sweep never touches another deployment nested under its prefix or sharing its prefix's start. */
class SweepOtherDeploymentsTest {
    private final List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    private final List<Hybris> opened = new ArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(Hybris::close);
    }

    private Hybris open(String prefix, Duration grace) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .objectPrefix(prefix).deadline(Duration.ofSeconds(5)).probeInterval(Duration.ZERO)
                .probeOnOpen(false).gcGrace(grace).chunkSize(64 << 10).chunkThreshold(64 << 10);
        raw.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        opened.add(h);
        return h;
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
