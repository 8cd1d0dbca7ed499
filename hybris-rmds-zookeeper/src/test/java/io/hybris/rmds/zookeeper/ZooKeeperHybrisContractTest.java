/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.CallerBehaviourContract;
import io.hybris.testkit.ChangeFeedContract;
import io.hybris.testkit.ConditionalHistoryContract;
import io.hybris.testkit.ConditionalRaceContract;
import io.hybris.testkit.ConditionalWriteContract;
import io.hybris.testkit.HybrisContract;
import io.hybris.testkit.ListingUnderChangeContract;
import io.hybris.testkit.ScrubContract;
import io.hybris.testkit.StreamingContract;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;


/** The end-to-end protocol suite over a real (in-process) ZooKeeper server. */
class ZooKeeperHybrisContractTest extends HybrisContract {
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    @Override
    protected MetadataStore newMetadataStore() {
        return newMetadataStore(ZooKeeperMetadataStoreProvider.CHANGES_RETENTION.defaultValue().orElseThrow());
    }

    MetadataStore newMetadataStore(int changesRetention) {
        return ZooKeeperMetadataStore.builder()
                .connect(ZK.connectString())
                .root(ZK.uniqueRoot("/e2e-"))
                .changesRetention(changesRetention)
                .build();
    }

    /** Threads sharing a client, interrupts and close() mid-call ({@link CallerBehaviourContract}), same server. */
    @Nested
    class CallerBehaviour extends CallerBehaviourContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return ZooKeeperHybrisContractTest.this.newMetadataStore();
        }
    }

    /** Scrub and repair ({@link ScrubContract}): moves recorded by this store's conditional update, same server. */
    @Nested
    class Scrub extends ScrubContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return ZooKeeperHybrisContractTest.this.newMetadataStore();
        }
    }

    /** Large values: chunks, manifests, ranges ({@link StreamingContract}), same server. */
    @Nested
    class Streaming extends StreamingContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return ZooKeeperHybrisContractTest.this.newMetadataStore();
        }
    }

    /** Conditional writes ({@link ConditionalWriteContract}), same server. */
    @Nested
    class ConditionalWrites extends ConditionalWriteContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return ZooKeeperHybrisContractTest.this.newMetadataStore();
        }
    }

    /** A PUT raced by conditional writes ({@link ConditionalRaceContract}), same server. */
    @Nested
    class ConditionalRaces extends ConditionalRaceContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return ZooKeeperHybrisContractTest.this.newMetadataStore();
        }
    }

    /** Plain and conditional writes checked for linearizability ({@link ConditionalHistoryContract}), same server. */
    @Nested
    class ConditionalHistory extends ConditionalHistoryContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return ZooKeeperHybrisContractTest.this.newMetadataStore();
        }
    }

    /** The change feed ({@link ChangeFeedContract}), same server. */
    @Nested
    class ChangeFeed extends ChangeFeedContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return ZooKeeperHybrisContractTest.this.newMetadataStore();
        }

        @Override
        protected MetadataStore newMetadataStore(int retention) {
            return ZooKeeperHybrisContractTest.this.newMetadataStore(retention);
        }
    }

    /** Listings while keys change between pages ({@link ListingUnderChangeContract}), same store. */
    @Nested
    class ListingUnderChange extends ListingUnderChangeContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return ZooKeeperHybrisContractTest.this.newMetadataStore();
        }
    }
}
