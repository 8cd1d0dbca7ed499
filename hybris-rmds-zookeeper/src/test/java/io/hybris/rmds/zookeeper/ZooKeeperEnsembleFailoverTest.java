package io.hybris.rmds.zookeeper;

import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;
import io.hybris.testkit.FailoverWorkload;
import io.hybris.testkit.ZooKeeperStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 3-node ZooKeeper ensemble loses its leader in the middle of a write/read workload: no acknowledged write
 * may be lost, and every call in flight either completes or fails with a clear exception before its deadline.
 */
class ZooKeeperEnsembleFailoverTest {
    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private TestingCluster cluster;
    private ZooKeeperMetadataStore store;
    private Hybris hybris;

    @AfterEach
    void tearDown() throws IOException {
        if (hybris != null) {
            hybris.close();
        }
        if (store != null) {
            store.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void leaderLossLosesNoAcknowledgedWriteAndNoCallOutlivesItsDeadline() throws Exception {
        cluster = new TestingCluster(3);
        cluster.start();
        store = ZooKeeperMetadataStore.builder()
                .connect(cluster.getConnectString())
                .root("/failover")
                .sessionTimeout(Duration.ofSeconds(10))
                .connectTimeout(Duration.ofSeconds(5))
                .operationTimeout(Duration.ofSeconds(8))
                .build();
        hybris = Hybris.builder()
                .f(1)
                .metadataStore(store)
                .cloud(new InMemoryCloudStore("c0"))
                .cloud(new InMemoryCloudStore("c1"))
                .cloud(new InMemoryCloudStore("c2"))
                .deadline(DEADLINE)
                .open();

        FailoverWorkload workload = FailoverWorkload.start(hybris, 3);
        workload.awaitAcknowledged(60, Duration.ofSeconds(60));
        assertThat(cluster.killServer(findLeader())).isTrue();
        workload.awaitAcknowledged(workload.acknowledged() + 60, Duration.ofSeconds(90));
        workload.stopAndVerify(DEADLINE);
    }

    /** The leader, found with the {@code srvr} four-letter command (enabled by default). */
    private InstanceSpec findLeader() {
        for (TestingZooKeeperServer server : cluster.getServers()) {
            InstanceSpec spec = server.getInstanceSpec();
            if (ZooKeeperStatus.isLeader(spec.getPort())) {
                return spec;
            }
        }
        throw new AssertionError("no leader found among " + cluster.getInstances());
    }
}
