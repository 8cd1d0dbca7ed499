/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.spi.MetadataStore;

import java.util.Map;

/**
 * The trusted metadata service the campaign runs against — a 3-server cluster on loopback whose leader the
 * {@link LeaderNemesis} kills and restarts — and how clients (in this JVM and in child JVMs) reach it.
 */
interface MetadataCluster extends AutoCloseable {
    /** {@code zookeeper} or {@code consul}. */
    String name();

    /** A new store for one client, scoped to {@code namespace} (the campaign's own, empty namespace). */
    MetadataStore newStore(String namespace);

    /** The {@code hybris.rmds.*} properties of a store like {@link #newStore}, for a client in another JVM. */
    Map<String, String> hybrisProperties(String namespace);

    /** Kills the current leader (SIGKILL or the in-process equivalent); returns which server it was. */
    String killLeader() throws Exception;

    /** Restarts every killed server and waits until the cluster has a leader and every server counts in its quorum. */
    void restartKilled() throws Exception;

    @Override
    void close();
}
