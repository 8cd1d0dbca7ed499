/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Kills the metadata service's leader, and on its next step restarts it and waits until it counts in the quorum
 * again (never two servers out at once: the 3-server cluster keeps its quorum).
 */
final class LeaderNemesis extends Nemesis {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderNemesis.class);

    private final MetadataCluster cluster;
    private final Tally tally;
    private boolean down;

    LeaderNemesis(MetadataCluster cluster, Tally tally) {
        super("leader", Duration.ofSeconds(3), Duration.ofSeconds(8));
        this.cluster = cluster;
        this.tally = tally;
    }

    @Override
    synchronized void step(SplittableRandom random) throws Exception {
        if (down) {
            heal();
            return;
        }
        String killed = cluster.killLeader();
        LOG.info("nemesis: killed the metadata leader, {}", killed);
        down = true;
        tally.fault(cluster.name() + " leader killed");
    }

    @Override
    synchronized void heal() throws Exception {
        if (down) {
            cluster.restartKilled();
            down = false;
            tally.fault(cluster.name() + " server restarted");
        }
    }
}
