package io.hybris.rmds.zookeeper;

/** The metadata store contract with {@code read-mode=quorum-write}: a write through the leader before each read. */
class ZooKeeperQuorumWriteContractTest extends ZooKeeperMetadataStoreContractTest {

    @Override
    ZooKeeperMetadataStore.ReadMode readMode() {
        return ZooKeeperMetadataStore.ReadMode.QUORUM_WRITE;
    }
}
