/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.InvalidRequestException;
import io.hybris.MetadataUnavailableException;
import io.hybris.PutOptions;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Updates larger than the servers' {@code jute.maxbuffer} ({@code max-request-size}): refused before they are sent,
 * with nothing written and the session's connection untouched, at exactly the size the server would refuse; and,
 * through Hybris, a TPUT refused so has its copies deleted at once (a definite failure, not an unknown outcome).
 * The in-process server keeps ZooKeeper's default {@code jute.maxbuffer}, 1,048,575 bytes.
 */
class ZooKeeperRequestSizeTest {
    private static final int SERVER_LIMIT = 1_048_575;
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    @Test
    void anUpdateLargerThanTheServersAcceptIsRefusedBeforeItIsSent() {
        try (ZooKeeperMetadataStore store = builder().build()) {
            List<ConnectionState> states = new CopyOnWriteArrayList<>();
            store.curator().getConnectionStateListenable().addListener((c, state) -> states.add(state));
            List<MetadataUpdate> updates = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                updates.add(new MetadataUpdate(new MetadataKey("c", "key-" + i), new byte[2400],
                        MetadataVersion.ABSENT));
            }

            assertThatThrownBy(() -> store.conditionalUpdateAll(updates))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageStartingWith("atomic update of 1000 keys (c/key-0, ...) is a ZooKeeper request of ")
                    .hasMessageContaining("more than the servers accept (max-request-size=1,048,575, their"
                            + " jute.maxbuffer); nothing was sent");
            assertThat(store.read(new MetadataKey("c", "key-0"))).isEmpty();
            assertThat(states).as("the connection was never dropped").isEmpty();
        }
    }

    @Test
    void theLimitIsTheServersToTheByte() throws Exception {
        try (ZooKeeperMetadataStore checked = builder().build();
             ZooKeeperMetadataStore unchecked = builder().maxRequestSize(1L << 30)
                     .operationTimeout(Duration.ofMillis(500)).build()) {
            // the largest single-key update the store lets through, by bisection on the value's size
            int accepted = 0;
            int refused = SERVER_LIMIT;
            AtomicInteger keys = new AtomicInteger();
            while (refused - accepted > 1) {
                int size = (accepted + refused) >>> 1;
                MetadataKey key = new MetadataKey("c", "k" + keys.incrementAndGet());
                try {
                    checked.conditionalUpdate(new MetadataUpdate(key, new byte[size], MetadataVersion.ABSENT));
                    accepted = size;
                } catch (InvalidRequestException e) {
                    refused = size;
                }
            }
            assertThat(accepted).as("the value is sent twice (the key and its change-log record)")
                    .isBetween(SERVER_LIMIT / 2 - 1000, SERVER_LIMIT / 2);

            // the server took the largest the store let through (above); one byte more, sent unchecked, it refuses
            MetadataKey over = new MetadataKey("c", "k" + keys.incrementAndGet());
            int oneMore = refused;
            assertThatThrownBy(() -> unchecked.conditionalUpdate(new MetadataUpdate(over, new byte[oneMore],
                    MetadataVersion.ABSENT))).isInstanceOf(MetadataUnavailableException.class);
            assertThat(checked.read(over)).isEmpty();
        }
    }

    @Test
    void aTputRefusedForItsSizeDeletesItsCopiesAndWritesNothing() throws Exception {
        List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        try (ZooKeeperMetadataStore store = builder().build();
             Hybris hybris = open(store, clouds)) {
            Map<String, String> large = Map.of("note", "x".repeat(2000)); // near the 2 KiB allowed per key
            Map<String, byte[]> values = new HashMap<>();
            Map<String, PutOptions> options = new HashMap<>();
            for (int i = 0; i < 300; i++) {
                values.put("doc-" + i, ("value " + i).getBytes(StandardCharsets.UTF_8));
                options.put("doc-" + i, PutOptions.none().withMetadata(large));
            }

            assertThatThrownBy(() -> hybris.tput("docs", values, options))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("atomic update of 300 keys")
                    .hasMessageContaining("nothing was sent");
            assertThat(hybris.get("docs", "doc-0")).isEmpty();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(clouds)
                    .allSatisfy(cloud -> assertThat(cloud.list("")).as(cloud.id()).isEmpty()));

            // fewer keys with the same metadata fit
            Map<String, byte[]> fewer = new HashMap<>();
            Map<String, PutOptions> fewerOptions = new HashMap<>();
            values.keySet().stream().limit(100).forEach(k -> {
                fewer.put(k, values.get(k));
                fewerOptions.put(k, options.get(k));
            });
            String oneOfThem = fewer.keySet().iterator().next();
            assertThat(hybris.tput("docs", fewer, fewerOptions)).hasSize(100);
            assertThat(hybris.describe("docs", oneOfThem).orElseThrow().metadata()).isEqualTo(large);
        }
    }

    private static Hybris open(ZooKeeperMetadataStore store, List<InMemoryCloudStore> clouds) {
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(store)
                .deadline(Duration.ofSeconds(20));
        clouds.forEach(config::cloud);
        return Hybris.open(config.build());
    }

    private static ZooKeeperMetadataStore.Builder builder() {
        return ZooKeeperMetadataStore.builder().connect(ZK.connectString())
                .root(ZK.uniqueRoot("/size-")).connectTimeout(Duration.ofSeconds(5));
    }
}
