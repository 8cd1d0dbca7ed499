/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.MetadataStoreException;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.testkit.BlockedCall;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing ends a call in flight at once, also one waiting on a server that stopped answering without closing its
 * connection (a {@link FreezableProxy} in front of the server), with a request-timeout far longer than the test
 * waits: ZooKeeper's own close waits up to that long for the answer to its {@code closeSession}, and the call as long
 * for its answer, so the store must not leave it to them. ({@code ZooKeeperCallBoundTest} checks the same with
 * 1-second timeouts, which a close waiting for them passes too.)
 */
class ZooKeeperHungServerCloseTest {
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    private static final Duration PROMPT = Duration.ofSeconds(5); // 1 s of grace for the close, then the cut
    /** The call waits in ZooKeeper on the caller's own thread. */
    private static final Predicate<Thread> IN_ZOOKEEPER = BlockedCall.inClass("org.apache.zookeeper.");

    @Test
    void hybrisCloseEndsAPutWaitingOnAHungServerWithClientClosedException() throws Exception {
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port())) {
            Hybris h = Hybris.open(Hybris.builder().f(1).deadline(Duration.ofSeconds(120))
                    .metadataStore("zookeeper", Map.of("connect", proxy.address(), "root", ZK.uniqueRoot("/close-"),
                            "request-timeout", "20s", "session-timeout", "60s"))
                    .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                    .probeInterval(Duration.ZERO).build());
            try {
                h.put("box", "k", bytes("v1"));
                VersionInfo v1 = h.describe("box", "k").orElseThrow(); // a read: ifMatch below makes no read of its own
                proxy.freeze();
                BlockedCall put = BlockedCall.start("close-test-writer",
                        () -> h.put("box", "k", bytes("v2"), PutOptions.ifMatch(v1.version())), IN_ZOOKEEPER);

                BlockedCall.Ended ended = put.endBy(h::close, Duration.ofSeconds(30));

                assertThat(ended.ended()).as("the put ended").isTrue();
                assertThat(ended.thrown()).isInstanceOf(ClientClosedException.class);
                assertThat(ended.took()).as("ended by close, not by the request's timeout").isLessThan(PROMPT);
            } finally {
                proxy.thaw();
                h.close();
            }
        }
    }

    @Test
    void storeCloseEndsAConditionalUpdateWaitingOnAHungServer() throws Exception {
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port())) {
            ZooKeeperMetadataStore store = ZooKeeperMetadataStore.builder().connect(proxy.address())
                    .root(ZK.uniqueRoot("/close-")).requestTimeout(Duration.ofSeconds(20))
                    .sessionTimeout(Duration.ofSeconds(60)).build();
            try {
                MetadataKey k = new MetadataKey("box", "k");
                store.conditionalUpdate(new MetadataUpdate(k, bytes("v1"), MetadataVersion.ABSENT));
                MetadataVersion v1 = store.read(k).orElseThrow().version();
                proxy.freeze();
                BlockedCall update = BlockedCall.start("close-test-writer",
                        () -> store.conditionalUpdate(new MetadataUpdate(k, bytes("v2"), v1)), IN_ZOOKEEPER);

                BlockedCall.Ended ended = update.endBy(store::close, Duration.ofSeconds(30));

                assertThat(ended.ended()).as("the update ended").isTrue();
                assertThat(ended.thrown()).isInstanceOf(MetadataStoreException.class)
                        .hasMessageContaining("outcome is unknown");
                assertThat(ended.took()).as("close and the update ended at once, not at the request's timeout")
                        .isLessThan(PROMPT);
            } finally {
                proxy.thaw();
                store.close();
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
