/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checkpoint of a stopped run applies only to the same run: a migration, a repairing scrub or a scrub of other
 * keys started with the state file of a stopped scrub must not skip the keys that scrub had checked.
 */
class ScrubStateReuseTest {
    private static final int KEYS = 1500;
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

    private Path stoppedScrub() {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(20))
                .probeInterval(Duration.ZERO).probeOnOpen(false);
        raw.forEach(b::cloud);
        h = Hybris.open(b.build());
        for (int i = 0; i < KEYS; i++) {
            h.put("plain", String.format("k%04d", i), ("value " + i).getBytes());
        }
        Path state = dir.resolve("ops.state");
        RuntimeException stop = new RuntimeException("Ctrl-C after the first page");
        try {
            h.scrub(ScrubOptions.listing().stateFile(state).listener(new ScrubListener() {
                @Override
                public void progress(String container, ScrubReport report) {
                    throw stop;
                }
            }));
        } catch (RuntimeException e) {
            assertThat(e).hasRootCauseMessage("Ctrl-C after the first page");
        }
        return state;
    }

    @Test
    void aMigrationWithTheStateFileOfAStoppedScrubMovesEveryKey() {
        Path state = stoppedScrub();
        ScrubReport r = h.migrate("c0", "c2", ScrubOptions.listing().stateFile(state));
        assertThat(r.complete()).isTrue();
        List<String> left = IntStream.range(0, KEYS).mapToObj(i -> String.format("k%04d", i))
                .filter(k -> h.describe("plain", k).orElseThrow().clouds().contains("c0")).toList();
        assertThat(left).as("keys still on the retired cloud after a complete migration").isEmpty();
    }

    @Test
    void aRepairingScrubWithTheStateFileOfAStoppedListingScrubRepairsTheKeysItHadFound() {
        Path state = dir.resolve("ops.state");
        stoppedScrubAfterLosing(state);
        ScrubReport r = h.scrub(ScrubOptions.listing().repair(true).stateFile(state));
        assertThat(r.complete()).isTrue();
        assertThat(raw.get(0).list("hybris/")).as("the lost copies are rebuilt").hasSize(lostCount);
    }

    private int lostCount;

    private void stoppedScrubAfterLosing(Path state) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(20))
                .probeInterval(Duration.ZERO).probeOnOpen(false);
        raw.forEach(b::cloud);
        h = Hybris.open(b.build());
        for (int i = 0; i < KEYS; i++) {
            h.put("plain", String.format("k%04d", i), ("value " + i).getBytes());
        }
        lostCount = raw.get(0).list("hybris/").size();
        raw.get(0).list("hybris/").forEach(o -> raw.get(0).delete(o.key())); // c0 lost everything
        RuntimeException stop = new RuntimeException("Ctrl-C after the first page");
        try {
            h.scrub(ScrubOptions.listing().stateFile(state).listener(new ScrubListener() {
                @Override
                public void progress(String container, ScrubReport report) {
                    throw stop;
                }
            }));
        } catch (RuntimeException e) {
            assertThat(e).hasRootCauseMessage("Ctrl-C after the first page");
        }
    }
}
