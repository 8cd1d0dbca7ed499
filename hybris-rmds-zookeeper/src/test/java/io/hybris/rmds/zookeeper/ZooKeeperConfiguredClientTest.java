/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataKey;
import io.hybris.testkit.ConfiguredClientContract;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ZooKeeper selected and configured by configuration only ({@link ConfiguredClientContract}): properties file,
 * digest from the environment, unreachable ensemble, unknown, missing and invalid options, the provider. A
 * {@code TestingServer} when one is needed.
 */
class ZooKeeperConfiguredClientTest extends ConfiguredClientContract {
    private static final String ROOT = "/from-properties";
    private TestingServer server;

    @Override
    protected StoreOptions storeOptions() {
        return new StoreOptions(ZooKeeperMetadataStoreProvider.TYPE, "ZooKeeper", "connect", "connect-timeout",
                "digest", List.of("sync", "quorum-write", "local"),
                Set.of("connect", "root", "read-mode", "session-timeout", "connect-timeout", "connection-timeout",
                        "operation-timeout", "request-timeout", "start-timeout", "digest", "max-response-size",
                        "max-request-size", "changes-retention"),
                ZooKeeperMetadataStoreProvider.class);
    }

    @Override
    protected String startServer() throws Exception {
        server = new TestingServer(true);
        return server.getConnectString();
    }

    /** Any server: the digest ACL is set by the client on the nodes it creates, and every server enforces it. */
    @Override
    protected String startServerRequiringCredential() throws Exception {
        return startServer();
    }

    @Override
    protected void closeServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected String credential() {
        return "dave:pw";
    }

    /** Nodes written with the digest are closed to a client without it. */
    @Override
    protected void assertWrittenWithCredential(String address, MetadataKey key) throws Exception {
        try (CuratorFramework anonymous = CuratorFrameworkFactory.newClient(address, new RetryOneTime(100))) {
            anonymous.start();
            assertThat(anonymous.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> anonymous.getData().forPath(ROOT + "/" + key.container() + "/" + key.key()))
                    .isInstanceOf(KeeperException.NoAuthException.class);
        }
    }

    @Override
    protected Map<String, String> namespaceOptions() {
        return Map.of("root", ROOT);
    }

    @Override
    protected void assertStoredWhereConfigured(String address, MetadataKey key) {
        try (ZooKeeperMetadataStore raw = ZooKeeperMetadataStore.builder().connect(address).root(ROOT)
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            assertThat(raw.read(key)).isPresent();
            assertThat(raw.containers()).containsExactly(key.container());
        }
    }
}
