/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataStoreException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.WatchedRead;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Configuration, root layout, digest ACLs and provider wiring of {@link ZooKeeperMetadataStore}. */
class ZooKeeperMetadataStoreTest {
    private static final String PREFIX = "hybris.rmds.zookeeper.";
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    // ------------------------------------------------------------------ layout

    @Test
    void metadataLivesUnderTheConfiguredRootAtTheEncodedKey() throws Exception {
        String root = ZK.uniqueRoot("/apps/team-") + "/hybris";
        try (ZooKeeperMetadataStore store = builder().root(root).build();
             CuratorFramework raw = raw(null)) {
            store.conditionalUpdate(new MetadataUpdate(new MetadataKey("photos", "a b/c.jpg"), bytes("meta"),
                    MetadataVersion.ABSENT));

            assertThat(raw.getData().forPath(root + "/photos/a%20b%2Fc.jpg")).isEqualTo(bytes("meta"));
            assertThat(raw.getChildren().forPath(root)).containsExactlyInAnyOrder("photos", ".changes");
            assertThat(raw.getChildren().forPath(root + "/.changes/photos")).as("the commit's change-log record")
                    .containsExactly("c-0000000000");
            assertThat(raw.getChildren().forPath(root + "/photos")).containsExactly("a%20b%2Fc.jpg");
            assertThat(raw.checkExists().forPath("/hybris")).as("default root untouched").isNull();
            assertThat(store.describe()).contains("ZooKeeper at " + ZK.connectString())
                    .contains("root " + root).contains("read-mode sync");
        }
    }

    @Test
    void quorumWriteModeOwnsASyncNodeOutsideEveryContainer() throws Exception {
        String root = uniqueRoot();
        try (ZooKeeperMetadataStore store = builder().root(root)
                .readMode(ZooKeeperMetadataStore.ReadMode.QUORUM_WRITE).build();
             CuratorFramework raw = raw(null)) {
            MetadataKey k = new MetadataKey("docs", "k");
            store.conditionalUpdate(new MetadataUpdate(k, bytes("v"), MetadataVersion.ABSENT));
            int before = raw.checkExists().forPath(root + "/.sync").getVersion();

            assertThat(store.read(k)).isPresent();
            assertThat(store.list("docs", "", null, 10).entries()).hasSize(1);

            assertThat(raw.checkExists().forPath(root + "/.sync").getVersion()).isEqualTo(before + 2);
            assertThat(raw.getChildren().forPath(root)).containsExactlyInAnyOrder(".sync", ".changes", "docs");
        }
    }

    @Test
    void localReadModeReadsWithoutSync() throws Exception {
        try (ZooKeeperMetadataStore store = builder().root(uniqueRoot())
                .readMode(ZooKeeperMetadataStore.ReadMode.LOCAL).build()) {
            MetadataKey k = new MetadataKey("docs", "k");
            store.conditionalUpdate(new MetadataUpdate(k, bytes("v"), MetadataVersion.ABSENT));
            assertThat(store.read(k).map(v -> new String(v.value(), StandardCharsets.UTF_8))).contains("v");
            assertThat(store.describe()).contains("read-mode local");
        }
    }

    @Test
    void aVersionNoZnodeCanHaveIsAConflictNotAnUnconditionalWrite() throws Exception {
        try (ZooKeeperMetadataStore store = builder().root(uniqueRoot()).build()) {
            MetadataKey k = new MetadataKey("docs", "k");
            store.conditionalUpdate(new MetadataUpdate(k, bytes("v"), MetadataVersion.ABSENT));
            for (long bogus : new long[] {-1, Integer.MAX_VALUE + 1L}) {
                assertThatThrownBy(() -> store.conditionalUpdate(new MetadataUpdate(k, bytes("x"),
                        new MetadataVersion(bogus))))
                        .isInstanceOf(io.hybris.spi.VersionConflictException.class);
            }
            assertThat(new String(store.read(k).orElseThrow().value(), StandardCharsets.UTF_8)).isEqualTo("v");
        }
    }

    // ------------------------------------------------------------------ watches

    @Test
    void cancelRemovesTheWatchFromTheClient() throws Exception {
        String root = uniqueRoot();
        try (ZooKeeperMetadataStore store = builder().root(root).build()) {
            MetadataKey existing = new MetadataKey("docs", "existing");
            MetadataKey missing = new MetadataKey("docs", "missing");
            store.conditionalUpdate(new MetadataUpdate(existing, bytes("v"), MetadataVersion.ABSENT));
            WatchedRead onExisting = store.readAndWatch(existing, () -> { });
            WatchedRead onMissing = store.readAndWatch(missing, () -> { });
            ZooKeeper zk = store.curator().getZookeeperClient().getZooKeeper();
            assertThat(watches(zk, "getDataWatches")).contains(root + "/docs/existing");
            assertThat(watches(zk, "getExistWatches")).contains(root + "/docs/missing");

            onExisting.subscription().cancel();
            onMissing.subscription().cancel();

            await().atMost(Duration.ofSeconds(10)).until(() ->
                    !watches(zk, "getDataWatches").contains(root + "/docs/existing")
                            && !watches(zk, "getExistWatches").contains(root + "/docs/missing"));
        }
    }

    // ------------------------------------------------------------------ znodes removed behind the store's back

    @Test
    void aCreateSucceedsAfterItsContainerZnodeWasRemoved() throws Exception {
        String root = uniqueRoot();
        try (ZooKeeperMetadataStore store = builder().root(root).build();
             CuratorFramework raw = raw(null)) {
            store.conditionalUpdate(new MetadataUpdate(new MetadataKey("docs", "a"), bytes("1"),
                    MetadataVersion.ABSENT));
            // what the server does itself to an emptied container znode (or another client sharing the store)
            raw.delete().deletingChildrenIfNeeded().forPath(root + "/docs");

            MetadataKey b = new MetadataKey("docs", "b");
            store.conditionalUpdate(new MetadataUpdate(b, bytes("2"), MetadataVersion.ABSENT));

            assertThat(store.read(b).orElseThrow().value()).isEqualTo(bytes("2"));
        }
    }

    @Test
    void aWriteSucceedsAfterItsChangeLogZnodeWasRemoved() throws Exception {
        String root = uniqueRoot();
        try (ZooKeeperMetadataStore store = builder().root(root).build();
             CuratorFramework raw = raw(null)) {
            store.conditionalUpdate(new MetadataUpdate(new MetadataKey("docs", "a"), bytes("1"),
                    MetadataVersion.ABSENT));
            raw.delete().deletingChildrenIfNeeded().forPath(root + "/.changes/docs");

            MetadataKey b = new MetadataKey("docs", "b");
            store.conditionalUpdate(new MetadataUpdate(b, bytes("2"), MetadataVersion.ABSENT));

            assertThat(store.read(b).orElseThrow().value()).isEqualTo(bytes("2"));
            assertThat(store.changes("docs", 1, 10).changes()).as("the write's record, in the log made again")
                    .hasSize(1);
        }
    }

    /** The paths a ZooKeeper handle watches (its accessors are protected: test-only reflection). */
    @SuppressWarnings("unchecked")
    private static List<String> watches(ZooKeeper zk, String accessor) throws Exception {
        Method m = ZooKeeper.class.getDeclaredMethod(accessor);
        m.setAccessible(true);
        return (List<String>) m.invoke(zk);
    }

    // ------------------------------------------------------------------ digest ACL

    @Test
    void digestAclKeepsOtherIdentitiesOut() throws Exception {
        String root = uniqueRoot();
        MetadataKey k = new MetadataKey("photos", "cat.jpg");
        try (ZooKeeperMetadataStore alice = builder().root(root).digest("alice:secret-a").build()) {
            alice.conditionalUpdate(new MetadataUpdate(k, bytes("alice's"), MetadataVersion.ABSENT));
            VersionedValue written = alice.read(k).orElseThrow();

            try (ZooKeeperMetadataStore bob = builder().root(root).digest("bob:secret-b").build();
                 ZooKeeperMetadataStore anonymous = builder().root(root).build()) {
                for (ZooKeeperMetadataStore other : List.of(bob, anonymous)) {
                    String identity = other == bob ? "digest user 'bob'" : "no digest identity";
                    assertDenied(() -> other.read(k), "read of photos/cat.jpg", identity);
                    assertDenied(() -> other.readAndWatch(k, () -> { }), "read of photos/cat.jpg", identity);
                    assertDenied(() -> other.conditionalUpdate(new MetadataUpdate(k, bytes("evil"),
                            written.version())), "conditional update of photos/cat.jpg", identity);
                    assertDenied(() -> other.conditionalUpdate(new MetadataUpdate(new MetadataKey("photos", "new"),
                            bytes("evil"), MetadataVersion.ABSENT)), "conditional update of photos/new", identity);
                    assertDenied(() -> other.list("photos", "", null, 10), "list of container photos", identity);
                }
            }

            VersionedValue after = alice.read(k).orElseThrow();
            assertThat(after.value()).isEqualTo(bytes("alice's"));
            assertThat(after.version()).isEqualTo(written.version());
            assertThat(alice.list("photos", "", null, 10).entries()).hasSize(1);
        }
        List<ACL> expected = List.of(new ACL(ZooDefs.Perms.ALL,
                new Id("digest", DigestAuthenticationProvider.generateDigest("alice:secret-a"))));
        try (CuratorFramework asAlice = raw("alice:secret-a"); CuratorFramework anonymous = raw(null)) {
            assertThat(asAlice.getACL().forPath(root)).isEqualTo(expected);
            assertThat(asAlice.getACL().forPath(root + "/photos")).isEqualTo(expected);
            assertThat(asAlice.getACL().forPath(root + "/photos/cat.jpg")).isEqualTo(expected);
            assertThatThrownBy(() -> anonymous.getData().forPath(root + "/photos/cat.jpg"))
                    .isInstanceOf(KeeperException.NoAuthException.class);
        }
    }

    private static void assertDenied(ThrowingCallable call, String operation, String identity) {
        assertThatThrownBy(call)
                .isExactlyInstanceOf(MetadataStoreException.class)
                .hasMessageContaining(operation)
                .hasMessageContaining("ACL")
                .hasMessageContaining("digest")
                .hasMessageContaining(identity)
                .hasMessageNotContaining("secret-");
    }

    // the digest from the environment through the configuration: in ZooKeeperConfiguredClientTest

    // ------------------------------------------------------------------ validation

    @ParameterizedTest
    @ValueSource(strings = {"relative", "/trailing/", "/", "//double", "/a/./b", "/zookeeper", "/zookeeper/x"})
    void invalidRootIsRejectedNamingTheOption(String root) {
        Map<String, String> options = Map.of("connect", ZK.connectString(), "root", root);
        assertThatThrownBy(() -> new ZooKeeperMetadataStoreProvider().create(options(options)))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "root=" + root)
                .hasMessageContaining("e.g. /hybris");
    }

    @Test
    void malformedDigestIsRejectedWithoutShowingIt() {
        assertThatThrownBy(() -> new ZooKeeperMetadataStoreProvider().create(options(Map.of(
                "connect", ZK.connectString(), "digest", "justapassword"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "digest")
                .hasMessageContaining("user:password")
                .hasMessageNotContaining("justapassword");
    }

    @Test
    void nonPositiveTimeoutIsRejected() {
        assertThatThrownBy(() -> new ZooKeeperMetadataStoreProvider().create(options(Map.of(
                "connect", ZK.connectString(), "operation-timeout", "0s"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "operation-timeout");
    }

    @Test
    void aMaxResponseSizeBelowZooKeepersOwnDefaultIsRejected() {
        assertThatThrownBy(() -> new ZooKeeperMetadataStoreProvider().create(options(Map.of(
                "connect", ZK.connectString(), "max-response-size", "512KiB"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage(PREFIX + "max-response-size=524288 must be between 1048576 and 1073741824 bytes"
                        + " (1MiB to 1GiB)");
    }

    // ------------------------------------------------------------------ providers

    // the zookeeper provider's lookup, missing connect, unknown read mode and unreachable ensemble: in
    // ZooKeeperConfiguredClientTest (ConfiguredClientContract)

    @Test
    void theEmbeddedServerIsNotPartOfThisModule() {
        Map<String, MetadataStoreProvider> byType = new HashMap<>();
        ServiceLoader.load(MetadataStoreProvider.class).forEach(p -> byType.put(p.type(), p));

        assertThat(byType.get("zookeeper")).isInstanceOf(ZooKeeperMetadataStoreProvider.class);
        assertThat(byType).as("the embedded server is module hybris-rmds-zookeeper-embedded")
                .doesNotContainKey("embedded-zookeeper");
    }

    @Test
    void providerAppliesEveryOption() throws Exception {
        String root = uniqueRoot();
        Map<String, String> o = Map.of("connect", ZK.connectString(), "root", root,
                "read-mode", "quorum-write", "session-timeout", "12s", "connect-timeout", "3s",
                "operation-timeout", "4s", "request-timeout", "2s", "start-timeout", "5s", "digest", "carol:pw",
                "max-response-size", "8MiB");
        try (MetadataStore store = new ZooKeeperMetadataStoreProvider().create(options(o));
             CuratorFramework asCarol = raw("carol:pw")) {
            MetadataKey k = new MetadataKey("docs", "k");
            store.conditionalUpdate(new MetadataUpdate(k, bytes("v"), MetadataVersion.ABSENT));

            assertThat(store.describe()).contains("root " + root).contains("read-mode quorum-write");
            assertThat(asCarol.getData().forPath(root + "/docs/k")).isEqualTo(bytes("v"));
            assertThat(asCarol.getACL().forPath(root + "/docs/k").get(0).getId().getId()).startsWith("carol:");
            assertThat(asCarol.checkExists().forPath(root + "/.sync")).isNotNull();
            CuratorFramework client = ((ZooKeeperMetadataStore) store).curator();
            assertThat(client.getZookeeperClient().getConnectionTimeoutMs()).isEqualTo(3000);
            assertThat(client.getZookeeperClient().getRetryPolicy()).hasToString("BoundedRetryPolicy[bound=4000ms]");
            assertThat(client.getZookeeperClient().getZooKeeper().getClientConfig()
                    .getLong(ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT, 0)).isEqualTo(2000);
            assertThat(client.getZookeeperClient().getZooKeeper().getClientConfig()
                    .getInt("jute.maxbuffer", 0)).isEqualTo(8 << 20);
            assertThat(store.callTimeBound()).as("connect + operation + request timeouts + 1 s")
                    .hasValue(Duration.ofSeconds(3 + 4 + 2 + 1));
        }
    }

    @Test
    void theDeprecatedConnectionTimeoutNameStillWorks() {
        Map<String, String> o = Map.of("connect", ZK.connectString(), "root", uniqueRoot(),
                "connection-timeout", "3s");
        try (MetadataStore store = new ZooKeeperMetadataStoreProvider().create(options(o))) {
            CuratorFramework client = ((ZooKeeperMetadataStore) store).curator();
            assertThat(client.getZookeeperClient().getConnectionTimeoutMs()).isEqualTo(3000);
        }
        assertThatThrownBy(() -> new ZooKeeperMetadataStoreProvider().create(options(Map.of(
                "connect", ZK.connectString(), "connect-timeout", "3s", "connection-timeout", "4s"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("connection-timeout is the deprecated name of connect-timeout");
    }

    // ------------------------------------------------------------------ helpers

    private static ZooKeeperMetadataStore.Builder builder() {
        return ZooKeeperMetadataStore.builder().connect(ZK.connectString())
                .connectTimeout(Duration.ofSeconds(5));
    }

    private static String uniqueRoot() {
        return ZK.uniqueRoot("/store-test-");
    }

    private static ProviderOptions options(Map<String, String> values) {
        return new ProviderOptions(PREFIX, values);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A plain Curator client on the test server, optionally authenticated with a digest. */
    private static CuratorFramework raw(String digest) throws InterruptedException {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder()
                .connectString(ZK.connectString())
                .retryPolicy(new RetryOneTime(100));
        if (digest != null) {
            b.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework client = b.build();
        client.start();
        assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
        return client;
    }
}
