package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataKey;
import io.hybris.testkit.ConfiguredClientContract;
import org.apache.curator.test.TestingServer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ZooKeeper selected and configured by configuration only ({@link ConfiguredClientContract}): properties file,
 * unreachable ensemble, unknown, missing and invalid options, the provider. A {@code TestingServer} when one is
 * needed.
 */
class ZooKeeperConfiguredClientTest extends ConfiguredClientContract {
    private static final String ROOT = "/from-properties";
    private TestingServer server;

    @Override
    protected StoreOptions storeOptions() {
        return new StoreOptions(ZooKeeperMetadataStoreProvider.TYPE, "ZooKeeper", "connect", "connection-timeout",
                List.of("sync", "quorum-write", "local"),
                Set.of("connect", "root", "read-mode", "session-timeout", "connection-timeout", "operation-timeout",
                        "start-timeout", "digest"),
                ZooKeeperMetadataStoreProvider.class);
    }

    @Override
    protected String startServer() throws Exception {
        server = new TestingServer(true);
        return server.getConnectString();
    }

    @Override
    protected void closeServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected Map<String, String> namespaceOptions() {
        return Map.of("root", ROOT);
    }

    @Override
    protected void assertStoredWhereConfigured(String address, MetadataKey key) {
        try (ZooKeeperMetadataStore raw = ZooKeeperMetadataStore.builder().connect(address).root(ROOT)
                .connectionTimeout(Duration.ofSeconds(5)).build()) {
            assertThat(raw.read(key)).isPresent();
            assertThat(raw.containers()).containsExactly(key.container());
        }
    }
}
