/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper.embedded;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataStoreException;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.VersionedValue;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The in-process ZooKeeper behind {@code hybris.rmds.type=embedded-zookeeper}. */
class EmbeddedZooKeeperTest {
    private static final String PREFIX = "hybris.rmds.embedded-zookeeper.";
    private static final Pattern ADDRESS = Pattern.compile("embedded ZooKeeper at 127\\.0\\.0\\.1:(\\d+)");

    @Test
    void dataSurvivesClosingAndReopeningOnTheSameDataDir(@TempDir Path dir) throws Exception {
        ProviderOptions options = new ProviderOptions(PREFIX, Map.of("data-dir", dir.toString()));
        MetadataKey cat = new MetadataKey("photos", "cat.jpg");
        MetadataKey dog = new MetadataKey("photos", "dog.jpg");
        int firstPort;
        VersionedValue written;
        try (MetadataStore store = new EmbeddedZooKeeperMetadataStoreProvider().create(options)) {
            assertThat(store.describe()).contains("embedded ZooKeeper at 127.0.0.1:").contains(dir.toString());
            firstPort = port(store);
            store.conditionalUpdate(new MetadataUpdate(cat, bytes("v1"), MetadataVersion.ABSENT));
            store.conditionalUpdate(new MetadataUpdate(cat, bytes("v2"), store.read(cat).orElseThrow().version()));
            store.conditionalUpdateAll(List.of(new MetadataUpdate(dog, bytes("woof"), MetadataVersion.ABSENT),
                    new MetadataUpdate(new MetadataKey("videos", "x"), bytes("x"), MetadataVersion.ABSENT)));
            written = store.read(cat).orElseThrow();
        }
        assertThatThrownBy(() -> connect(firstPort)).as("the server stopped with the store")
                .isInstanceOf(ConnectException.class);

        try (MetadataStore store = new EmbeddedZooKeeperMetadataStoreProvider().create(options)) {
            VersionedValue read = store.read(cat).orElseThrow();
            assertThat(read.value()).isEqualTo(bytes("v2"));
            assertThat(read.version()).isEqualTo(written.version());
            assertThat(store.read(dog).orElseThrow().value()).isEqualTo(bytes("woof"));
            assertThat(store.list("photos", "", null, 10).entries()).extracting(e -> e.key())
                    .containsExactly("cat.jpg", "dog.jpg");
        }
    }

    @Test
    void embeddedStoreHonoursRootAndDigest(@TempDir Path dir) throws Exception {
        ProviderOptions options = new ProviderOptions(PREFIX, Map.of("data-dir", dir.toString(),
                "root", "/app/meta", "digest", "app:pw", "read-mode", "quorum-write"));
        try (MetadataStore store = new EmbeddedZooKeeperMetadataStoreProvider().create(options)) {
            store.conditionalUpdate(new MetadataUpdate(new MetadataKey("c", "k"), bytes("v"), MetadataVersion.ABSENT));
            try (CuratorFramework asApp = raw(port(store), "app:pw");
                 CuratorFramework anonymous = raw(port(store), null)) {
                assertThat(asApp.getData().forPath("/app/meta/c/k")).isEqualTo(bytes("v"));
                assertThat(asApp.checkExists().forPath("/app/meta/.sync")).isNotNull();
                assertThatThrownBy(() -> anonymous.getData().forPath("/app/meta/c/k"))
                        .isInstanceOf(KeeperException.NoAuthException.class);
            }
            assertThat(store.describe()).contains("root /app/meta").contains("read-mode quorum-write");
        }
    }

    @Test
    void providerIsFoundByServiceLoaderWithItsOptions() {
        List<MetadataStoreProvider> found = ServiceLoader.load(MetadataStoreProvider.class).stream()
                .map(ServiceLoader.Provider::get).toList();

        assertThat(found).filteredOn(p -> p.type().equals("embedded-zookeeper")).singleElement()
                .isInstanceOf(EmbeddedZooKeeperMetadataStoreProvider.class)
                .satisfies(p -> assertThat(p.optionNames()).containsExactlyInAnyOrder("data-dir", "port", "root",
                        "read-mode", "session-timeout", "connect-timeout", "connection-timeout", "operation-timeout",
                        "request-timeout", "start-timeout", "digest", "max-response-size", "max-request-size",
                        "changes-retention"));
        assertThat(found).as("the external-ensemble provider comes along")
                .anySatisfy(p -> assertThat(p).isInstanceOf(ZooKeeperMetadataStoreProvider.class));
    }

    @Test
    void dataDirIsRequired() {
        assertThatThrownBy(() -> new EmbeddedZooKeeperMetadataStoreProvider().create(
                new ProviderOptions(PREFIX, Map.of())))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "data-dir");
    }

    @Test
    void invalidOptionsAreRejectedBeforeAServerStarts(@TempDir Path dir) {
        assertThatThrownBy(() -> new EmbeddedZooKeeperMetadataStoreProvider().create(
                new ProviderOptions(PREFIX, Map.of("data-dir", dir.toString(), "root", "no-slash"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "root=no-slash");
        assertThatThrownBy(() -> new EmbeddedZooKeeperMetadataStoreProvider().create(
                new ProviderOptions(PREFIX, Map.of("data-dir", dir.toString(), "port", "70000"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "port=70000");
        assertThat(dir.resolve("version-2")).doesNotExist();
    }

    @Test
    void aDataDirServesOneEmbeddedServerAtATime(@TempDir Path dir) throws Exception {
        try (EmbeddedZooKeeper first = EmbeddedZooKeeper.start(dir, 0)) {
            assertThat(first.connectString()).isEqualTo("127.0.0.1:" + first.port());
            assertThat(first.port()).isPositive();
            connect(first.port()).close();
            assertThatThrownBy(() -> EmbeddedZooKeeper.start(dir, 0))
                    .isInstanceOf(MetadataStoreException.class)
                    .hasMessageContaining(dir.toAbsolutePath().toString())
                    .hasMessageContaining("in use");
        }
        EmbeddedZooKeeper.start(dir, 0).close(); // released on close
    }

    @Test
    void hybrisRunsEndToEndOnTheEmbeddedDefault(@TempDir Path dir) throws Exception {
        Map<String, String> properties = new TreeMap<>(Map.of(
                "hybris.f", "1",
                "hybris.rmds.type", "embedded-zookeeper",
                "hybris.rmds.embedded-zookeeper.data-dir", dir.resolve("metadata").toString()));
        for (String cloud : List.of("d1", "d2", "d3")) {
            properties.put("hybris.cloud." + cloud + ".type", "directory");
            properties.put("hybris.cloud." + cloud + ".path", dir.resolve(cloud).toString());
        }
        Map<String, String> env = Map.of("HYBRIS_RMDS_EMBEDDED_ZOOKEEPER_DIGEST", "app:s3cret");

        try (Hybris hybris = Hybris.open(HybrisConfig.fromMap(properties, env))) {
            hybris.put("photos", "cat.jpg", bytes("meow"));
            hybris.tput("photos", Map.of("a", bytes("A"), "b", bytes("B")));
            assertThat(hybris.get("photos", "cat.jpg")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("meow")));
            assertThat(hybris.list("photos")).containsExactly("a", "b", "cat.jpg");
        }
        try (Hybris hybris = Hybris.open(HybrisConfig.fromMap(properties, env))) {
            assertThat(hybris.get("photos", "cat.jpg")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("meow")));
            assertThat(hybris.get("photos", "b")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("B")));
        }
    }

    private static int port(MetadataStore store) {
        Matcher m = ADDRESS.matcher(store.describe());
        assertThat(m.find()).as("address in %s", store.describe()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    private static CuratorFramework raw(int port, String digest) throws InterruptedException {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder()
                .connectString("127.0.0.1:" + port)
                .retryPolicy(new RetryOneTime(100));
        if (digest != null) {
            b.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework client = b.build();
        client.start();
        assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
        return client;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
