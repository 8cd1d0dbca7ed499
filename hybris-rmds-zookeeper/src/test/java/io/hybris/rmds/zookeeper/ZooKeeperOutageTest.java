/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionedValue;
import io.hybris.testkit.MetadataStoreOutageContract;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A stopped server ({@link MetadataStoreOutageContract}: calls fail fast and clearly, then recover without losing
 * data) and, specific to ZooKeeper, session expiry. One in-process server per test, restarted on the same data.
 */
class ZooKeeperOutageTest extends MetadataStoreOutageContract<ZooKeeperMetadataStore> {
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);

    private TestingServer server;

    @Override
    protected void startServer() throws Exception {
        server = new TestingServer(true);
    }

    @Override
    protected ZooKeeperMetadataStore newStore() {
        return ZooKeeperMetadataStore.builder()
                .connect(server.getConnectString())
                .root("/outage")
                .sessionTimeout(Duration.ofSeconds(10))
                .connectTimeout(CONNECTION_TIMEOUT)
                .operationTimeout(OPERATION_TIMEOUT)
                .build();
    }

    @Override
    protected void stopServer() throws Exception {
        server.stop();
    }

    @Override
    protected void restartServer() throws Exception {
        server.restart();
    }

    @Override
    protected void closeServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected String serverName() {
        return "ZooKeeper";
    }

    /** Twice the documented worst case (connect-timeout + operation-timeout). */
    @Override
    protected Duration failWithin() {
        return CONNECTION_TIMEOUT.plus(OPERATION_TIMEOUT).multipliedBy(2);
    }

    @Test
    void afterSessionExpiryCallsSucceedAgainAndNothingIsLost() throws Exception {
        AtomicInteger watchFired = new AtomicInteger();
        store.readAndWatch(KEY, watchFired::incrementAndGet);
        ZooKeeper old = store.curator().getZookeeperClient().getZooKeeper();
        long oldSession = old.getSessionId();

        old.getTestable().injectSessionExpiration();

        await().atMost(Duration.ofSeconds(10)).until(() -> watchFired.get() == 1); // the watch died with the session
        VersionedValue after = await().atMost(Duration.ofSeconds(30))
                .ignoreExceptionsInstanceOf(MetadataUnavailableException.class)
                .until(() -> store.read(KEY).orElse(null), v -> v != null);
        assertThat(after.value()).isEqualTo(bytes("before"));
        assertThat(store.curator().getZookeeperClient().getZooKeeper().getSessionId()).isNotEqualTo(oldSession);

        store.conditionalUpdate(new MetadataUpdate(KEY, bytes("after"), after.version()));
        assertThat(store.read(KEY).orElseThrow().value()).isEqualTo(bytes("after"));
        assertThat(watchFired).hasValue(1);
    }
}
