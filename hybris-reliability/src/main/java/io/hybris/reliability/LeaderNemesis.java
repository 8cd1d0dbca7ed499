package io.hybris.reliability;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Kills the metadata service's leader, and on its next step restarts it (never two servers down at once: the
 * 3-server cluster keeps its quorum).
 */
final class LeaderNemesis implements Nemesis {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderNemesis.class);

    private final MetadataCluster cluster;
    private final Tally tally;
    private boolean down;

    LeaderNemesis(MetadataCluster cluster, Tally tally) {
        this.cluster = cluster;
        this.tally = tally;
    }

    @Override
    public String name() {
        return "leader";
    }

    @Override
    public Duration minPause() {
        return Duration.ofSeconds(3);
    }

    @Override
    public Duration maxPause() {
        return Duration.ofSeconds(8);
    }

    @Override
    public synchronized void step(SplittableRandom random) throws Exception {
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
    public synchronized void heal() throws Exception {
        if (down) {
            cluster.restartKilled();
            down = false;
            tally.fault(cluster.name() + " server restarted");
        }
    }
}
