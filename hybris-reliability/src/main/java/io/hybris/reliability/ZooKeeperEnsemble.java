/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ServerPorts;
import io.hybris.testkit.ZooKeeperStatus;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A 3-node ZooKeeper ensemble in this JVM (curator-test's {@link TestingCluster}). */
final class ZooKeeperEnsemble implements MetadataCluster {
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(8);

    private final TestingCluster cluster;
    private final List<InstanceSpec> killed = new ArrayList<>();

    ZooKeeperEnsemble() throws Exception {
        // a node restarted by the nemesis binds its old election port again, which the killed node's listener may
        // still hold for a moment: retry for up to 30 s (not 3 times), and never let ZooKeeper exit this JVM
        // (after failed binds it calls System.exit(14), which ends the whole test run instead of failing a node)
        if (System.getProperty("zookeeper.electionPortBindRetry") == null) {
            System.setProperty("zookeeper.electionPortBindRetry", "30");
        }
        cluster = new TestingCluster(specs(3));
        cluster.start();
        keepZooKeeperFromExitingTheJvm();
    }

    /**
     * {@code n} servers on ports below the kernel's ephemeral range ({@link ServerPorts}): a server binds its
     * ports while the ensemble starts, and a port chosen with {@code bind(0)} may be taken by an outgoing connection
     * in between (a CI run ended that way: the bind failed during the start, and ZooKeeper exited the JVM before
     * {@link #keepZooKeeperFromExitingTheJvm} could run).
     */
    static List<InstanceSpec> specs(int n) {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            specs.add(new InstanceSpec(null, ServerPorts.next(), ServerPorts.next(), ServerPorts.next(), true, -1));
        }
        return specs;
    }

    /**
     * Makes ZooKeeper log instead of calling {@code System.exit}. Needed after every server start: curator-test
     * runs each server as a {@code ZooKeeperServerEmbedded}, whose {@code start} sets ZooKeeper's JVM-wide exit
     * procedure back to {@code System.exit} (a soak ended with "Exiting JVM with code 14" when a restarted node could
     * not bind its election port for 30 s, although this was set once before the cluster started).
     */
    private static void keepZooKeeperFromExitingTheJvm() {
        org.apache.zookeeper.util.ServiceUtils.setSystemExitProcedure(org.apache.zookeeper.util.ServiceUtils.LOG_ONLY);
    }

    @Override
    public String name() {
        return "zookeeper";
    }

    @Override
    public MetadataStore newStore(String namespace) {
        return ZooKeeperMetadataStore.builder().connect(cluster.getConnectString()).root("/" + namespace)
                .sessionTimeout(SESSION_TIMEOUT).connectTimeout(CONNECTION_TIMEOUT)
                .operationTimeout(OPERATION_TIMEOUT).build();
    }

    @Override
    public Map<String, String> hybrisProperties(String namespace) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("hybris.rmds.type", "zookeeper");
        p.put("hybris.rmds.zookeeper.connect", cluster.getConnectString());
        p.put("hybris.rmds.zookeeper.root", "/" + namespace);
        p.put("hybris.rmds.zookeeper.session-timeout", SESSION_TIMEOUT.toSeconds() + "s");
        p.put("hybris.rmds.zookeeper.connect-timeout", CONNECTION_TIMEOUT.toSeconds() + "s");
        p.put("hybris.rmds.zookeeper.operation-timeout", OPERATION_TIMEOUT.toSeconds() + "s");
        return p;
    }

    @Override
    public synchronized String killLeader() throws Exception {
        for (TestingZooKeeperServer server : cluster.getServers()) {
            InstanceSpec spec = server.getInstanceSpec();
            if (!killed.contains(spec) && ZooKeeperStatus.isLeader(spec.getPort())) {
                if (cluster.killServer(spec)) {
                    killed.add(spec);
                    return "zookeeper server on port " + spec.getPort();
                }
            }
        }
        return "none (no leader at the moment)";
    }

    @Override
    public synchronized void restartKilled() throws Exception {
        for (InstanceSpec spec : killed) {
            cluster.restartServer(spec);
            keepZooKeeperFromExitingTheJvm();
        }
        killed.clear();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!hasLeader()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the ZooKeeper ensemble elected no leader within 60 s");
            }
            Thread.sleep(50); // polling the servers' own status; nothing to wait on
        }
    }

    private boolean hasLeader() {
        for (TestingZooKeeperServer server : cluster.getServers()) {
            if (ZooKeeperStatus.isLeader(server.getInstanceSpec().getPort())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
