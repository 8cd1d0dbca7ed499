package io.hybris.rmds.consul;

import io.hybris.testkit.ConsulTestAgent;
import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import org.junit.jupiter.api.AfterEach;
import io.hybris.testkit.FailoverWorkload;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 3-server Consul cluster on loopback loses its leader (SIGKILL) in the middle of a write/read workload: no
 * acknowledged write may be lost, and every call in flight either completes or fails with a clear exception
 * before its deadline. The store talks to a follower's HTTP API, which forwards to whichever server leads.
 */
class ConsulClusterFailoverTest {
    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private ConsulTestAgent.Cluster cluster;
    private ConsulMetadataStore store;
    private Hybris hybris;

    @AfterEach
    void tearDown() {
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
        cluster = ConsulTestAgent.cluster(3);
        ConsulTestAgent leader = cluster.leader();
        ConsulTestAgent follower = cluster.servers().stream().filter(s -> s != leader).findFirst().orElseThrow();
        store = ConsulMetadataStore.builder()
                .address(follower.address())
                .keyPrefix("failover")
                .connectTimeout(Duration.ofSeconds(2))
                .readTimeout(Duration.ofSeconds(10))
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
        assertThat(cluster.leader()).as("the leader has not changed yet").isSameAs(leader);
        leader.kill();
        workload.awaitAcknowledged(workload.acknowledged() + 60, Duration.ofSeconds(90));
        ConsulTestAgent newLeader = cluster.awaitLeader(Duration.ofSeconds(30));
        workload.stopAndVerify(DEADLINE);
        assertThat(newLeader).isNotSameAs(leader);
    }
}
