/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.rmds.consul.ConsulMetadataStore;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ConsulTestAgent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A 3-server Consul cluster on loopback ({@link ConsulTestAgent#cluster}); each client talks to one server, in
 * turn, so a killed leader takes some clients' agent away until it is restarted — as losing a node does.
 */
final class ConsulServers implements MetadataCluster {
    private final ConsulTestAgent.Cluster cluster;
    private final List<ConsulTestAgent> killed = new ArrayList<>();
    private final AtomicInteger next = new AtomicInteger();

    ConsulServers() {
        cluster = ConsulTestAgent.cluster(3);
    }

    @Override
    public String name() {
        return "consul";
    }

    private String nextAddress() {
        List<ConsulTestAgent> servers = cluster.servers();
        return servers.get(Math.floorMod(next.getAndIncrement(), servers.size())).address();
    }

    @Override
    public MetadataStore newStore(String namespace) {
        return ConsulMetadataStore.builder().address(nextAddress()).keyPrefix(namespace)
                .connectTimeout(Duration.ofSeconds(2)).readTimeout(Duration.ofSeconds(8))
                .operationTimeout(Duration.ofSeconds(8)).startTimeout(Duration.ofSeconds(30)).build();
    }

    @Override
    public Map<String, String> hybrisProperties(String namespace) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("hybris.rmds.type", "consul");
        p.put("hybris.rmds.consul.address", nextAddress());
        p.put("hybris.rmds.consul.key-prefix", namespace);
        p.put("hybris.rmds.consul.connect-timeout", "2s");
        p.put("hybris.rmds.consul.read-timeout", "8s");
        p.put("hybris.rmds.consul.operation-timeout", "8s");
        p.put("hybris.rmds.consul.start-timeout", "30s");
        return p;
    }

    @Override
    public synchronized String killLeader() {
        ConsulTestAgent leader = cluster.leader();
        leader.kill();
        killed.add(leader);
        return "consul server " + leader.name();
    }

    @Override
    public synchronized void restartKilled() {
        for (ConsulTestAgent agent : killed) {
            agent.restart();
        }
        killed.clear();
        // a voter again, not only running: autopilot may have removed it as dead, and until it promotes it back
        // the next leader kill would take the quorum (2 voters of which 1 left) and the cluster with it
        cluster.awaitAllVoters(Duration.ofSeconds(60));
    }

    @Override
    public void close() {
        cluster.close();
    }
}
