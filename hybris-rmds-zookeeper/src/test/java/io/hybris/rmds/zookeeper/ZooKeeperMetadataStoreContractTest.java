/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ChangeLogContract;
import io.hybris.testkit.MetadataStoreContract;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link MetadataStoreContract} against {@link ZooKeeperMetadataStore} in the default {@code sync} read mode,
 * on one in-process ZooKeeper (curator-test) per class; each test gets its own root.
 */
class ZooKeeperMetadataStoreContractTest extends MetadataStoreContract {
    private static final AtomicInteger ROOTS = new AtomicInteger();
    private static TestingServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = new TestingServer(true);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    /** The read mode under test. */
    ZooKeeperMetadataStore.ReadMode readMode() {
        return ZooKeeperMetadataStore.ReadMode.SYNC;
    }

    @Override
    protected MetadataStore newStore() {
        return ZooKeeperMetadataStore.builder()
                .connect(server.getConnectString())
                .root("/contract/" + readMode().optionValue() + "-" + ROOTS.incrementAndGet())
                .readMode(readMode())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** The change log ({@link ChangeLogContract}), same server. */
    @org.junit.jupiter.api.Nested
    class ChangeLog extends ChangeLogContract {
        @Override
        protected MetadataStore newStore() {
            return ZooKeeperMetadataStoreContractTest.this.newStore();
        }
    }
}
