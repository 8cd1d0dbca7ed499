/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A resumed scrub recorded the listing digests of every bucket as verified, including buckets whose keys it did not
 * check (they were before the checkpoint), so a copy lost between the stop and the resume was never looked at again
 * by a listing scrub. A resumed scrub now records no digest (docs/scrub.md).
 */
class ScrubResumeDigestTest {
    private static final String PREFIX = "hybris/";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    private Hybris h;

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void aCopyLostBeforeAResumedScrubIsNeverFoundByLaterListingScrubs() {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(20))
                .probeInterval(Duration.ZERO).probeOnOpen(false);
        raw.forEach(b::cloud);
        h = Hybris.open(b.build());
        for (int i = 0; i < 1500; i++) {
            h.put("plain", String.format("k%04d", i), ("value " + i).getBytes());
        }
        Path state = dir.resolve("scrub.state");

        // a routine listing scrub dies after its first page (checkpoint saved), e.g. the process is killed
        RuntimeException stop = new RuntimeException("killed after the first page");
        int[] pages = {0};
        try {
            h.scrub(ScrubOptions.listing().stateFile(state).listener(new ScrubListener() {
                @Override
                public void progress(String container, ScrubReport report) {
                    if (++pages[0] == 1) {
                        throw stop;
                    }
                }
            }));
        } catch (RuntimeException e) {
            assertThat(e).hasRootCauseMessage("killed after the first page");
        }

        // meanwhile a cloud loses the copy of a key of the first page (checked healthy before the crash)
        String lostKey = "k0007";
        String name = VersionName.keyPrefix(PREFIX, "plain", lostKey);
        InMemoryCloudStore holder = raw.stream().filter(c -> c.list(name).stream().map(CloudObject::key)
                .anyMatch(k -> k.startsWith(name))).findFirst().orElseThrow();
        holder.list(name).forEach(o -> holder.delete(o.key()));

        ScrubReport resumed = h.scrub(ScrubOptions.listing().stateFile(state));
        assertThat(resumed.complete()).isTrue();

        // the next repairing scrub must find and rebuild it: the lost copy changed the bucket's listing
        Map<String, KeyHealth> seen = new ConcurrentHashMap<>();
        ScrubReport repair = h.scrub(ScrubOptions.listing().repair(true).stateFile(state).listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                seen.put(health.key(), health);
            }
        }));
        List<String> holders = new ArrayList<>();
        raw.forEach(c -> {
            if (!c.list(name).isEmpty()) {
                holders.add(c.id());
            }
        });
        assertThat(seen).as("the key whose copy was lost is checked again").containsKey(lostKey);
        assertThat(repair.copiesRepaired()).isEqualTo(1);
        assertThat(holders).as("f+1 copies again").hasSize(2);
    }
}
