/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper.embedded;

import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.ProviderOptions;
import org.apache.zookeeper.server.SyncRequestProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded ZooKeeper keeps its data directory bounded: ZooKeeper writes a snapshot (and starts a new
 * transaction log) about every 100,000 transactions and never deletes old ones by itself (a standalone server
 * needs {@code autopurge}), so a long-lived embedded store would fill its disk. Here a snapshot every few writes
 * stands in for a long life.
 */
class EmbeddedZooKeeperPurgeTest {
    /** The snapshots the store keeps (with the transaction logs they need): ZooKeeper autopurge's minimum. */
    private static final int KEPT = 3;

    private int snapCount;

    @BeforeEach
    void snapshotOften() {
        snapCount = SyncRequestProcessor.getSnapCount();
        SyncRequestProcessor.setSnapCount(4);
    }

    @AfterEach
    void restoreSnapshotCount() {
        SyncRequestProcessor.setSnapCount(snapCount);
    }

    @Test
    void oldSnapshotsAndTransactionLogsArePurgedAndTheDataSurvives(@TempDir Path dir) throws Exception {
        ProviderOptions options = new ProviderOptions("hybris.rmds.embedded-zookeeper.",
                Map.of("data-dir", dir.toString()));
        int keys = 200;
        try (MetadataStore store = new EmbeddedZooKeeperMetadataStoreProvider().create(options)) {
            for (int i = 0; i < keys; i++) {
                store.conditionalUpdate(new MetadataUpdate(new MetadataKey("photos", "k" + i),
                        ("v" + i).getBytes(StandardCharsets.UTF_8), MetadataVersion.ABSENT));
            }
        }
        assertThat(count(dir, "snapshot.")).as("snapshots written").isGreaterThan(KEPT);

        try (MetadataStore store = new EmbeddedZooKeeperMetadataStoreProvider().create(options)) {
            assertThat(count(dir, "snapshot.")).as("snapshots kept").isLessThanOrEqualTo(
                    KEPT);
            for (int i = 0; i < keys; i++) {
                assertThat(store.read(new MetadataKey("photos", "k" + i))).as("k" + i).isPresent();
            }
        }
    }

    @Test
    void aPurgeWhileTheServerRunsKeepsEveryWrite(@TempDir Path dir) throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir, 0);
             MetadataStore store = io.hybris.rmds.zookeeper.ZooKeeperMetadataStore.builder()
                     .connect(zk.connectString()).build()) {
            for (int i = 0; i < 100; i++) {
                store.conditionalUpdate(new MetadataUpdate(new MetadataKey("photos", "k" + i),
                        ("v" + i).getBytes(StandardCharsets.UTF_8), MetadataVersion.ABSENT));
            }
            assertThat(count(dir, "snapshot.")).as("snapshots to purge").isGreaterThan(KEPT);
            java.io.PrintStream out = System.out;
            java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
            System.setOut(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
            try {
                zk.purge(); // what the server does every PURGE_INTERVAL
            } finally {
                System.setOut(out);
            }
            assertThat(count(dir, "snapshot.")).isLessThanOrEqualTo(KEPT);
            // ZooKeeper's PurgeTxnLog prints each file it removes: in a CLI's --json output that broke the JSON
            assertThat(printed.toString(StandardCharsets.UTF_8)).as("printed to standard output").isEmpty();
            assertThat(store.read(new MetadataKey("photos", "k99"))).isPresent();
        }
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir, 0);
             MetadataStore store = io.hybris.rmds.zookeeper.ZooKeeperMetadataStore.builder()
                     .connect(zk.connectString()).build()) {
            for (int i = 0; i < 100; i++) {
                assertThat(store.read(new MetadataKey("photos", "k" + i))).as("k" + i).isPresent();
            }
        }
    }

    static long count(Path dir, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("version-2"))) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).count();
        }
    }
}
