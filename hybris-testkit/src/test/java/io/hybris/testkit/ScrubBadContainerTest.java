/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.InvalidRequestException;
import io.hybris.ScrubOptions;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A scrub or migration given a bad container name (docs/scrub.md) is refused before it does anything: it used to
 * scrub, repair or move the containers named before the bad one, then fail.
 */
class ScrubBadContainerTest {
    private final List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    private Hybris h;

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void aBadContainerNameIsRefusedBeforeAnyRepair() {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .deadline(Duration.ofSeconds(10)).probeInterval(Duration.ZERO).probeOnOpen(false);
        raw.forEach(b::cloud);
        h = Hybris.open(b.build());
        h.put("good", "k", "value".getBytes());
        String lost = h.describe("good", "k").orElseThrow().clouds().get(0);
        InMemoryCloudStore cloud = raw.stream().filter(c -> c.id().equals(lost)).findFirst().orElseThrow();
        cloud.list("").stream().map(CloudObject::key).forEach(cloud::delete);

        assertThatThrownBy(() -> h.scrub(ScrubOptions.listing().repair(true).containers("good", "Bad_Name")))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("Bad_Name");
        assertThatThrownBy(() -> h.migrate("c0", "c1", ScrubOptions.listing().containers("good", "Bad_Name")))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("Bad_Name");
        assertThat(cloud.list("")).as("nothing repaired or moved").isEmpty();
        assertThat(h.scrub(ScrubOptions.listing()).copiesMissing()).isEqualTo(1);
    }
}
