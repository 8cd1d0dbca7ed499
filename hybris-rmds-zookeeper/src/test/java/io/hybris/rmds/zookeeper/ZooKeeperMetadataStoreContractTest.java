/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ChangeLogContract;
import io.hybris.testkit.ListingContract;
import io.hybris.testkit.MetadataStoreContract;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

/**
 * The {@link MetadataStoreContract} against {@link ZooKeeperMetadataStore} in the default {@code sync} read mode,
 * on one in-process ZooKeeper (curator-test) per class; each test gets its own root.
 */
class ZooKeeperMetadataStoreContractTest extends MetadataStoreContract {
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    /** The read mode under test. */
    ZooKeeperMetadataStore.ReadMode readMode() {
        return ZooKeeperMetadataStore.ReadMode.SYNC;
    }

    @Override
    protected MetadataStore newStore() {
        return ZooKeeperMetadataStore.builder()
                .connect(ZK.connectString())
                .root("/contract/" + readMode().optionValue() + ZK.uniqueRoot("-"))
                .readMode(readMode())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** The change log ({@link ChangeLogContract}), same server. */
    @Nested
    class ChangeLog extends ChangeLogContract {
        @Override
        protected MetadataStore newStore() {
            return ZooKeeperMetadataStoreContractTest.this.newStore();
        }
    }

    /** Listings under change and over odd keys ({@link ListingContract}), same server. */
    @Nested
    class Listing extends ListingContract {
        @Override
        protected MetadataStore newStore() {
            return ZooKeeperMetadataStoreContractTest.this.newStore();
        }
    }
}
