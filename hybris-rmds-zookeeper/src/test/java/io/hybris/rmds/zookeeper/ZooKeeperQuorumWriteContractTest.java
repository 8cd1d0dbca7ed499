/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

/** The metadata store contract with {@code read-mode=quorum-write}: a write through the leader before each read. */
class ZooKeeperQuorumWriteContractTest extends ZooKeeperMetadataStoreContractTest {

    @Override
    ZooKeeperMetadataStore.ReadMode readMode() {
        return ZooKeeperMetadataStore.ReadMode.QUORUM_WRITE;
    }
}
