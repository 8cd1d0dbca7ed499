/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import org.apache.zookeeper.util.ServiceUtils;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The campaign's in-process ensemble never lets ZooKeeper end the test JVM: after it starts, and after the leader
 * nemesis restarts a killed server, ZooKeeper's exit procedure is the logging one (curator-test's embedded servers
 * set {@code System.exit} back on every start; a soak died of it when a restarted node could not bind its port).
 */
class ZooKeeperEnsembleTest {
    @Test
    void zooKeeperLogsInsteadOfExitingAfterTheEnsembleStartsAndAfterEveryRestart() throws Exception {
        try (ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble()) {
            assertThat(exitProcedure()).as("after the start").isSameAs(ServiceUtils.LOG_ONLY);
            await("a leader to kill").atMost(Duration.ofSeconds(60))
                    .until(() -> ensemble.killLeader().startsWith("zookeeper server on port"));
            ensemble.restartKilled();
            assertThat(exitProcedure()).as("after the restart").isSameAs(ServiceUtils.LOG_ONLY);
        }
    }

    private static Object exitProcedure() throws ReflectiveOperationException {
        Field f = ServiceUtils.class.getDeclaredField("systemExitProcedure");
        f.setAccessible(true);
        return f.get(null);
    }
}
