/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.MetadataStoreFailoverContract;
import io.hybris.testkit.ServerPorts;
import io.hybris.testkit.ZooKeeperStatus;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A 3-node ZooKeeper ensemble ({@code TestingCluster}) loses its leader in the middle of a write/read workload
 * ({@link MetadataStoreFailoverContract}): no acknowledged write may be lost, and every call in flight either
 * completes or fails with a clear exception before its deadline.
 */
class ZooKeeperEnsembleFailoverTest extends MetadataStoreFailoverContract {
    private TestingCluster cluster;
    private InstanceSpec killed;

    @Override
    protected void startCluster() throws Exception {
        // ports below the ephemeral range: one chosen with bind(0) may be taken by a connection before the
        // server binds it, and ZooKeeper then exits the JVM (ServerPorts)
        List<InstanceSpec> specs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            specs.add(new InstanceSpec(null, ServerPorts.next(), ServerPorts.next(), ServerPorts.next(), true, -1));
        }
        cluster = new TestingCluster(specs);
        cluster.start();
    }

    @Override
    protected MetadataStore newStore() {
        return ZooKeeperMetadataStore.builder()
                .connect(cluster.getConnectString())
                .root("/failover")
                .sessionTimeout(Duration.ofSeconds(10))
                .connectTimeout(Duration.ofSeconds(5))
                .operationTimeout(Duration.ofSeconds(8))
                .build();
    }

    @Override
    protected void killLeader() throws Exception {
        killed = findLeader().orElseThrow(() -> new AssertionError("no leader found among "
                + cluster.getInstances()));
        assertThat(cluster.killServer(killed)).isTrue();
    }

    @Override
    protected void assertNewLeader() {
        InstanceSpec leader = await().atMost(Duration.ofSeconds(30)).until(() -> findLeader().orElse(null),
                spec -> spec != null);
        assertThat(leader).isNotEqualTo(killed);
    }

    @Override
    protected void closeCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The leader, found with the {@code srvr} four-letter command (enabled by default). */
    private Optional<InstanceSpec> findLeader() {
        for (TestingZooKeeperServer server : cluster.getServers()) {
            InstanceSpec spec = server.getInstanceSpec();
            if (ZooKeeperStatus.isLeader(spec.getPort())) {
                return Optional.of(spec);
            }
        }
        return Optional.empty();
    }
}
