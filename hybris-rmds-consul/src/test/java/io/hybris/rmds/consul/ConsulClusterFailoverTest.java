/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ConsulTestAgent;
import io.hybris.testkit.MetadataStoreFailoverContract;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 3-server Consul cluster on loopback loses its leader (SIGKILL) in the middle of a write/read workload
 * ({@link MetadataStoreFailoverContract}): no acknowledged write may be lost, and every call in flight either
 * completes or fails with a clear exception before its deadline. The store talks to a follower's HTTP API, which
 * forwards to whichever server leads.
 */
class ConsulClusterFailoverTest extends MetadataStoreFailoverContract {
    private ConsulTestAgent.Cluster cluster;
    private ConsulTestAgent leader;

    @Override
    protected void startCluster() {
        cluster = ConsulTestAgent.cluster(3);
        leader = cluster.awaitAllVoters(Duration.ofSeconds(30)); // the failover needs all three in the quorum
        assertThat(leader.reportedVoters()).as("the Raft voters, by server address")
                .containsExactlyInAnyOrderElementsOf(cluster.servers().stream().map(ConsulTestAgent::serverAddress)
                        .toList());
    }

    @Override
    protected MetadataStore newStore() {
        ConsulTestAgent follower = cluster.servers().stream().filter(s -> s != leader).findFirst().orElseThrow();
        return ConsulMetadataStore.builder()
                .address(follower.address())
                .keyPrefix("failover")
                .connectTimeout(Duration.ofSeconds(2))
                .readTimeout(Duration.ofSeconds(10))
                .operationTimeout(Duration.ofSeconds(8))
                .build();
    }

    @Override
    protected void killLeader() {
        assertThat(cluster.leader()).as("the leader has not changed yet").isSameAs(leader);
        leader.kill();
    }

    @Override
    protected void assertNewLeader() {
        assertThat(cluster.awaitLeader(Duration.ofSeconds(30))).isNotSameAs(leader);
    }

    @Override
    protected void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
