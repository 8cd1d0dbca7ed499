/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataPage;
import io.hybris.testkit.FreezableProxy;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Listings of containers larger than ZooKeeper's default 1 MiB response ({@code max-response-size}), and paging
 * that reads a container's children once per listing, not once per page, while staying as fresh as a new
 * {@code getChildren} ({@code ListedNames}).
 */
class ZooKeeperLargeContainerTest {
    /** 40,000 keys of 40 characters: a children listing of about 1.8 MB, over ZooKeeper's 1 MiB default. */
    private static final int LARGE = 40_000;
    private static final String LARGE_ROOT = "/large";
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();
    private static ZooKeeper zk;

    @BeforeAll
    static void startServerWithALargeContainer() throws Exception {
        zk = new ZooKeeper(ZK.connectString(), 30_000, event -> { });
        create(LARGE_ROOT);
        create(LARGE_ROOT + "/c");
        List<CompletableFuture<Integer>> created = new ArrayList<>();
        for (int i = 0; i < LARGE; i++) {
            CompletableFuture<Integer> done = new CompletableFuture<>();
            zk.create(LARGE_ROOT + "/c/" + largeKey(i), new byte[100], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT, (rc, path, ctx, name) -> done.complete(rc), null);
            created.add(done);
        }
        for (CompletableFuture<Integer> done : created) {
            assertThat(done.get(60, TimeUnit.SECONDS)).isEqualTo(KeeperException.Code.OK.intValue());
        }
    }

    @AfterAll
    static void closeClient() throws Exception {
        zk.close();
    }

    private static String largeKey(int i) {
        return "photos-2026-holiday-camera-roll-" + String.format("%08d", i);
    }

    @Test
    void aContainerListingLargerThanOneMebibyteIsPagedInFullReadingItsChildrenOnce() throws Exception {
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
             ZooKeeperMetadataStore store = builder(proxy.address()).root(LARGE_ROOT).build()) {
            long before = proxy.bytesFromServer();
            List<String> listed = listAll(store, "c", null, 1000);

            List<String> expected = new ArrayList<>();
            for (int i = 0; i < LARGE; i++) {
                expected.add(largeKey(i));
            }
            assertThat(listed).as("every key once, in order").isEqualTo(expected);
            long names = LARGE * (4L + largeKey(0).length());
            long values = LARGE * (100L + 200); // the data, its stat and the reply header, generously
            assertThat(proxy.bytesFromServer() - before)
                    .as("the children (%,d bytes) sent once for 40 pages, not once per page (%,d bytes)", names,
                            40 * names)
                    .isLessThan(2 * names + values);
        }
    }

    @Test
    void aListingLargerThanMaxResponseSizeFailsNamingTheOptionAndTheContainersSize() {
        try (ZooKeeperMetadataStore store = builder(ZK.connectString()).root(LARGE_ROOT)
                .maxResponseSize(1L << 20).operationTimeout(Duration.ofSeconds(1)).build()) {
            assertThatThrownBy(() -> store.list("c", "", null, 1000))
                    .isInstanceOf(MetadataUnavailableException.class)
                    .hasMessageContaining("list of container c")
                    .hasMessageContaining("The container has " + LARGE + " keys")
                    .hasMessageContaining("max-response-size=1MiB");
        }
    }

    @Test
    void pagesSeeKeysCreatedDeletedAndUpdatedSinceTheFirstPage() throws Exception {
        String root = rootWithContainer("/paging-", "", 30);
        try (ZooKeeperMetadataStore store = builder(ZK.connectString()).root(root).build()) {
            MetadataPage first = store.list("c", "", null, 10);
            assertThat(keys(first)).containsExactly(key(0), key(1), key(2), key(3), key(4), key(5), key(6),
                    key(7), key(8), key(9));

            create(root + "/c/" + key(25) + "x");
            zk.delete(root + "/c/" + key(15), -1);
            zk.setData(root + "/c/" + key(12), bytes("updated"), -1);

            MetadataPage second = store.list("c", "", key(9), 10);
            assertThat(keys(second)).containsExactly(key(10), key(11), key(12), key(13), key(14), key(16),
                    key(17), key(18), key(19), key(20));
            assertThat(second.entries().get(2).value()).isEqualTo(bytes("updated"));
            assertThat(listAll(store, "c", key(20), 10)).containsExactly(key(21), key(22), key(23), key(24),
                    key(25), key(25) + "x", key(26), key(27), key(28), key(29));
        }
    }

    @Test
    void aContainerDeletedAndCreatedAgainWithAsManyChildrenIsListedAfresh() throws Exception {
        String root = rootWithContainer("/recreated-", "a", 30);
        try (ZooKeeperMetadataStore store = builder(ZK.connectString()).root(root).build()) {
            assertThat(keys(store.list("c", "", null, 10))).hasSize(10).allMatch(k -> k.startsWith("a"));

            for (int i = 0; i < 30; i++) {
                zk.delete(root + "/c/a" + key(i), -1);
            }
            zk.delete(root + "/c", -1);
            create(root + "/c");
            for (int i = 0; i < 15; i++) { // the same number of children: the same cversion, another czxid
                create(root + "/c/a" + key(i));
                create(root + "/c/z" + key(i));
            }

            assertThat(keys(store.list("c", "", "a" + key(9), 10))).containsExactly("a" + key(10),
                    "a" + key(11), "a" + key(12), "a" + key(13), "a" + key(14), "z" + key(0), "z" + key(1),
                    "z" + key(2), "z" + key(3), "z" + key(4));
        }
    }

    @Test
    void aPrefixPagesOnlyItsOwnKeys() throws Exception {
        String root = ZK.uniqueRoot("/prefix-");
        create(root);
        create(root + "/c");
        for (String k : List.of("a1", "b1", "b2", "b3", "b4", "b5", "c1")) {
            create(root + "/c/" + k);
        }
        try (ZooKeeperMetadataStore store = builder(ZK.connectString()).root(root).build()) {
            MetadataPage first = store.list("c", "b", null, 2);
            assertThat(keys(first)).containsExactly("b1", "b2");
            assertThat(first.hasMore()).isTrue();
            assertThat(listAll(store, "c", "b", "b2", 2)).containsExactly("b3", "b4", "b5");
            assertThat(store.list("c", "b", "b5", 2).entries()).isEmpty();
            assertThat(keys(store.list("c", "", "b5", 2))).containsExactly("c1");
        }
    }

    private static List<String> listAll(ZooKeeperMetadataStore store, String container, String after, int limit) {
        return listAll(store, container, "", after, limit);
    }

    private static List<String> listAll(ZooKeeperMetadataStore store, String container, String prefix,
                                        String after, int limit) {
        List<String> all = new ArrayList<>();
        String cursor = after;
        while (true) {
            MetadataPage page = store.list(container, prefix, cursor, limit);
            all.addAll(keys(page));
            if (!page.hasMore()) {
                return all;
            }
            cursor = page.entries().get(page.entries().size() - 1).key();
        }
    }

    private static List<String> keys(MetadataPage page) {
        return page.entries().stream().map(MetadataEntry::key).toList();
    }

    private static String key(int i) {
        return String.format("k%02d", i);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A new root whose container {@code c} holds {@code keys} keys named {@code namePrefix + key(i)}. */
    private static String rootWithContainer(String rootPrefix, String namePrefix, int keys) throws Exception {
        String root = ZK.uniqueRoot(rootPrefix);
        create(root);
        create(root + "/c");
        for (int i = 0; i < keys; i++) {
            create(root + "/c/" + namePrefix + key(i));
        }
        return root;
    }

    private static void create(String path) throws Exception {
        zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }

    private static ZooKeeperMetadataStore.Builder builder(String connect) {
        return ZooKeeperMetadataStore.builder().connect(connect).connectTimeout(Duration.ofSeconds(5));
    }
}
