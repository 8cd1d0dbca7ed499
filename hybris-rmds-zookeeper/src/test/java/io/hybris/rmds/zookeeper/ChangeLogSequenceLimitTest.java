/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A container's change-log records are sequential znodes named after the count of the log znode's creations, which
 * ZooKeeper cannot count past {@link Integer#MAX_VALUE}: after about two
 * billion commits to one container its commits would fail. Compaction warns well before (at 2^30), and the reads
 * keep working once the {@code cversion} ZooKeeper reports (creations plus deletions) has wrapped past 2^31; the
 * server's counter is set there directly, as a billion commits would leave it.
 */
class ChangeLogSequenceLimitTest {
    @Test
    void compactionWarnsAboutALogPastHalfItsSequenceNumbers(@TempDir Path dir) throws Exception {
        ZooKeeperServer server = new ZooKeeperServer(dir.toFile(), dir.toFile(), 2000);
        ServerCnxnFactory factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", 0), 0);
        factory.startup(server);
        try (ZooKeeperMetadataStore store = ZooKeeperMetadataStore.builder()
                .connect("127.0.0.1:" + factory.getLocalPort()).root("/limit").build()) {
            commit(store, "young", "k");
            commit(store, "old", "k");
            store.changeLog().compact("young");
            store.changeLog().compact("old");
            assertThat(store.changeLog().nearSequenceLimit()).isEmpty();

            DataNode log = server.getZKDatabase().getDataTree().getNode(store.changeLog().path("old"));
            synchronized (log) {
                log.stat.setCversion(ZooKeeperChangeLog.SEQUENCE_WARNING + 5);
            }
            commit(store, "old", "k2");

            store.changeLog().compact("young");
            store.changeLog().compact("old");

            assertThat(store.changeLog().nearSequenceLimit()).containsExactly("old");
            long latest = ZooKeeperChangeLog.SEQUENCE_WARNING + 6L;
            assertThat(store.changeLog().cversion("old")).as("the cversion ZooKeeper reports has wrapped").isNegative();
            assertThat(store.latestChange("old")).as("the record after the jump").isEqualTo(latest);
            assertThat(store.changes("old", latest, 10).changes()).extracting(c -> c.updates().get(0).key())
                    .containsExactly("k2");
            java.util.concurrent.CountDownLatch woken = new java.util.concurrent.CountDownLatch(1);
            store.watchChanges("old", latest, woken::countDown).cancel();
            assertThat(woken.getCount()).as("a watch from a record already there fires at once").isZero();
        } finally {
            factory.shutdown();
        }
    }

    private static void commit(ZooKeeperMetadataStore store, String container, String key) throws Exception {
        store.conditionalUpdate(new MetadataUpdate(new MetadataKey(container, key),
                "v".getBytes(StandardCharsets.UTF_8), MetadataVersion.ABSENT));
    }
}
