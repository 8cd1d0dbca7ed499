/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.MetadataUnavailableException;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.testkit.ForwardingMetadataStore;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An update whose answer is lost after the server applied it: Curator re-sends the {@code multi}, which then conflicts
 * with the earlier send's own change. Here a newer write replaces every key in between, so the re-read cannot find
 * the update's own timestamp either: the store must say that the earlier send may have applied
 * ({@link VersionConflictException#mayHaveApplied()}), and Hybris must report the write's outcome as unknown, never
 * as a definite failure (TPUT aborted, precondition failed) of a write that other clients may already have read.
 * The answer is lost for real: a proxy holds the server's answers while the request is applied, then drops the
 * connection.
 */
class ZooKeeperResentUpdateTest {
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(ZooKeeperMetadataStore store, MetadataKey key) {
        return store.read(key).map(v -> new String(v.value(), StandardCharsets.UTF_8)).orElse(null);
    }

    private static ZooKeeperMetadataStore.Builder builder(String connect, String root) {
        return ZooKeeperMetadataStore.builder().connect(connect).root(root).connectTimeout(Duration.ofSeconds(5));
    }

    /** A store that holds the proxy's answers from the start of its next conditional update on. */
    private static final class FreezingBeforeUpdate extends ForwardingMetadataStore {
        private final FreezableProxy proxy;
        private volatile boolean armed;

        FreezingBeforeUpdate(MetadataStore delegate, FreezableProxy proxy) {
            super(delegate);
            this.proxy = proxy;
        }

        /** Holds the answers from the next conditional update on; returns this. */
        FreezingBeforeUpdate armed() {
            armed = true;
            return this;
        }

        /** {@code hybris}, for a call chained after {@link #armed()}. */
        Hybris client(Hybris hybris) {
            return hybris;
        }

        private void freezeIfArmed() {
            if (armed) {
                armed = false;
                proxy.freezeAnswers();
            }
        }

        @Override
        public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
            freezeIfArmed();
            super.conditionalUpdate(update);
        }

        @Override
        public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
            freezeIfArmed();
            super.conditionalUpdateAll(updates);
        }
    }

    /**
     * Runs {@code call}, which holds {@code proxy}'s answers before it sends its update, until {@code landed} holds
     * (the server applied the update), then runs {@code meanwhile}, drops the connection (the answer is lost) and
     * lets traffic through again; returns what the call threw, or null.
     */
    private static Throwable withLostAnswer(FreezableProxy proxy, ThrowingRunnable call, Supplier<Boolean> landed,
                                            Runnable meanwhile) throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                call.run();
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        }, "caller-with-lost-answer");
        caller.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(landed::get);
            meanwhile.run();
        } finally {
            proxy.dropConnections();
            proxy.thaw();
        }
        return outcome.get(60, TimeUnit.SECONDS);
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void aConflictFoundByAReSentUpdateSaysTheEarlierSendMayHaveApplied() throws Exception {
        String root = ZK.uniqueRoot("/resent-");
        MetadataKey a = new MetadataKey("box", "a");
        MetadataKey b = new MetadataKey("box", "b");
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
             ZooKeeperMetadataStore proxied = builder(proxy.address(), root).build();
             ZooKeeperMetadataStore direct = builder(ZK.connectString(), root).build()) {
            // created through the proxied store, which so knows the container and its change log: the update below
            // is its next request
            proxied.conditionalUpdateAll(List.of(new MetadataUpdate(a, bytes("v0"), MetadataVersion.ABSENT),
                    new MetadataUpdate(b, bytes("v0"), MetadataVersion.ABSENT)));
            MetadataVersion va = proxied.read(a).orElseThrow().version();
            MetadataVersion vb = proxied.read(b).orElseThrow().version();

            Throwable thrown = withLostAnswer(proxy,
                    () -> new FreezingBeforeUpdate(proxied, proxy).armed().conditionalUpdateAll(List.of(new MetadataUpdate(a, bytes("tx"), va),
                            new MetadataUpdate(b, bytes("tx"), vb))),
                    () -> "tx".equals(text(direct, a)),
                    () -> {
                        try {
                            direct.conditionalUpdateAll(List.of(
                                    new MetadataUpdate(a, bytes("newer"), direct.read(a).orElseThrow().version()),
                                    new MetadataUpdate(b, bytes("newer"), direct.read(b).orElseThrow().version())));
                        } catch (VersionConflictException e) {
                            throw new AssertionError(e);
                        }
                    });

            assertThat(thrown).isInstanceOf(VersionConflictException.class)
                    .hasMessageContaining("re-sent after a lost answer");
            assertThat(((VersionConflictException) thrown).mayHaveApplied()).isTrue();
            assertThat(text(direct, a)).isEqualTo("newer");
            assertThat(text(direct, b)).isEqualTo("newer");
        }
    }

    @Test
    void aConflictOfAnUpdateSentOnceSaysNothingWasApplied() throws Exception {
        String root = ZK.uniqueRoot("/resent-");
        MetadataKey a = new MetadataKey("box", "a");
        try (ZooKeeperMetadataStore store = builder(ZK.connectString(), root).build()) {
            store.conditionalUpdate(new MetadataUpdate(a, bytes("v0"), MetadataVersion.ABSENT));
            MetadataVersion v0 = store.read(a).orElseThrow().version();
            store.conditionalUpdate(new MetadataUpdate(a, bytes("v1"), v0));

            VersionConflictException conflict = org.junit.jupiter.api.Assertions.assertThrows(
                    VersionConflictException.class, () -> store.conditionalUpdate(new MetadataUpdate(a,
                            bytes("stale"), v0)));

            assertThat(conflict.mayHaveApplied()).isFalse();
            assertThat(text(store, a)).isEqualTo("v1");
        }
    }

    private static Hybris client(MetadataStore store, List<CloudStore> clouds, String id) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(store).clientId(id)
                .deadline(Duration.ofSeconds(60));
        clouds.forEach(b::cloud);
        return Hybris.open(b.build());
    }

    @Test
    void aTransactionWhoseReSentUpdateMeetsNewerWritesOnEveryKeyHasAnUnknownOutcomeNotAnAbort() throws Exception {
        String root = ZK.uniqueRoot("/resent-");
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        MetadataKey a = new MetadataKey("box", "a");
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
             ZooKeeperMetadataStore proxiedStore = builder(proxy.address(), root).build();
             ZooKeeperMetadataStore directStore = builder(ZK.connectString(), root).build()) {
            FreezingBeforeUpdate freezing = new FreezingBeforeUpdate(proxiedStore, proxy);
            try (Hybris tx = client(freezing, clouds, "tx");
                 Hybris other = client(directStore, clouds, "other")) {
                tx.tput("box", Map.of("a", bytes("old-a"), "b", bytes("old-b")));
                MetadataVersion before = directStore.read(a).orElseThrow().version();

                Throwable thrown = withLostAnswer(proxy,
                        () -> freezing.armed().client(tx).tput("box", Map.of("a", bytes("tx-a"), "b", bytes("tx-b"))),
                        () -> !directStore.read(a).orElseThrow().version().equals(before),
                        () -> {
                            assertThat(other.get("box", "a")).as("the transaction landed and is read")
                                    .hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("tx-a")));
                            other.put("box", "a", bytes("newer-a"));
                            other.put("box", "b", bytes("newer-b"));
                        });

                assertThat(thrown).as("a transaction that may have landed (and was read) is not reported aborted")
                        .isInstanceOf(MetadataUnavailableException.class).hasMessageContaining("outcome is unknown");
                assertThat(other.get("box", "a")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer-a")));
                assertThat(other.get("box", "b")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer-b")));
            }
        }
    }

    @Test
    void aConditionalPutWhoseReSentUpdateMeetsANewerWriteHasAnUnknownOutcomeNotAFailedPrecondition()
            throws Exception {
        String root = ZK.uniqueRoot("/resent-");
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        MetadataKey k = new MetadataKey("box", "k");
        try (FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
             ZooKeeperMetadataStore proxiedStore = builder(proxy.address(), root).build();
             ZooKeeperMetadataStore directStore = builder(ZK.connectString(), root).build()) {
            FreezingBeforeUpdate freezing = new FreezingBeforeUpdate(proxiedStore, proxy);
            try (Hybris writer = client(freezing, clouds, "writer");
                 Hybris other = client(directStore, clouds, "other")) {
                VersionInfo first = writer.put("box", "k", bytes("first"));
                MetadataVersion before = directStore.read(k).orElseThrow().version();

                Throwable thrown = withLostAnswer(proxy,
                        () -> freezing.armed().client(writer).put("box", "k", bytes("mine"),
                                PutOptions.ifMatch(first.version())),
                        () -> !directStore.read(k).orElseThrow().version().equals(before),
                        () -> {
                            assertThat(other.get("box", "k")).as("the put landed and is read")
                                    .hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("mine")));
                            other.put("box", "k", bytes("newer"));
                        });

                assertThat(thrown).as("a put that may have landed (and was read) has not failed its precondition")
                        .isInstanceOf(MetadataUnavailableException.class).hasMessageContaining("outcome is unknown");
                assertThat(other.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer")));
            }
        }
    }
}
