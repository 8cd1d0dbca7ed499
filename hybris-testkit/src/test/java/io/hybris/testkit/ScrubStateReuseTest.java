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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The state file of a stopped run. Its checkpoint applies only to the same run: a migration, a repairing scrub or a
 * scrub of other keys started with the state file of a stopped scrub must not skip the keys that scrub had checked.
 * The same run resumed reports what the stopped one had found before its checkpoint.
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

    /**
     * A listing scrub stopped after its first page and resumed with its state file checks only the keys after the
     * checkpoint, but its report counts what the stopped run found before it and its listener hears those keys again:
     * the stopped run's report was never returned. It used to report only the keys after the checkpoint, as if the
     * copies lost before it were not lost.
     */
    @Test
    void aResumedScrubReportsWhatTheStoppedRunFoundBeforeItsCheckpoint() {
        Path state = dir.resolve("ops.state");
        stoppedScrubAfterLosing(state);
        List<KeyHealth> heard = new ArrayList<>();
        ScrubReport r = h.scrub(ScrubOptions.listing().stateFile(state).listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                heard.add(health);
            }
        }));
        assertThat(r.complete()).isTrue();
        assertThat(r.keysChecked()).as("the keys checked by both runs").isEqualTo(KEYS);
        assertThat(r.degraded()).as("keys with their copy on the lost cloud").isEqualTo(lostCount);
        assertThat(r.copiesMissing()).isEqualTo(lostCount);
        assertThat(r.healthy()).isEqualTo(KEYS - lostCount);
        assertThat(heard).filteredOn(k -> k.status() == KeyHealth.Status.DEGRADED).extracting(KeyHealth::key)
                .doesNotHaveDuplicates().hasSize(lostCount);

        // that run completed: the next one starts over, with nothing carried from the stopped one
        ScrubReport again = h.scrub(ScrubOptions.listing().stateFile(state));
        assertThat(again.keysChecked() + again.keysSkipped()).isEqualTo(KEYS);
        assertThat(again.degraded()).isEqualTo(lostCount);
        assertThat(again.copiesMissing()).isEqualTo(lostCount);
    }

    /**
     * A scrub killed while it replaced its state file leaves the temporary next version beside it: a later run with
     * that state file deletes the ones untouched for an hour (nothing else would), and no other file.
     */
    @Test
    void aScrubDeletesTheAbandonedTemporaryFilesOfItsStateFile() throws Exception {
        Path state = dir.resolve("ops.state");
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(Duration.ofHours(2)));
        Path abandoned = java.nio.file.Files.write(dir.resolve("ops.state8812345.tmp"), new byte[100]);
        java.nio.file.Files.setLastModifiedTime(abandoned, old);
        Path other = java.nio.file.Files.write(dir.resolve("other.state1.tmp"), new byte[100]);
        java.nio.file.Files.setLastModifiedTime(other, old);
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(20))
                .probeInterval(Duration.ZERO).probeOnOpen(false);
        raw.forEach(b::cloud);
        h = Hybris.open(b.build());
        h.put("plain", "k", "v".getBytes());

        assertThat(h.scrub(ScrubOptions.listing().stateFile(state)).complete()).isTrue();

        assertThat(abandoned).doesNotExist();
        assertThat(other).as("another state file's").exists();
        assertThat(dir.resolve("ops.state")).exists();
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
