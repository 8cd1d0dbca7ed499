/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ChangeFeedRaceContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The change feed under the commit rule's races ({@link ChangeFeedRaceContract}) over a real ZooKeeper server. */
class ZooKeeperChangeFeedRaceContractTest extends ChangeFeedRaceContract {
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    @Override
    protected MetadataStore newMetadataStore() {
        return ZooKeeperMetadataStore.builder()
                .connect(ZK.connectString())
                .root(ZK.uniqueRoot("/feed-race-"))
                .build();
    }
}
