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
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.testkit.ForwardingMetadataStore;
import io.hybris.testkit.FreezableProxy;
import io.hybris.testkit.ResentUpdateContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ResentUpdateContract} on ZooKeeper, where Curator re-sends a {@code multi} whose answer was lost; and what
 * Hybris makes of such a conflict when a newer write replaced every key in between: the write's outcome is unknown,
 * never a definite failure (TPUT aborted, precondition failed) of a write that other clients may already have read.
 * The answer is lost for real: a proxy holds the server's answers while the update is applied, then drops the
 * connection ({@link FreezableProxy#loseAnswer}).
 */
class ZooKeeperResentUpdateTest extends ResentUpdateContract {
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

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

        /** Holds the answers from the next conditional update on. */
        void arm() {
            armed = true;
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
     * Two Hybris clients on shared in-memory clouds: {@code subject} reaches ZooKeeper through the proxy (and can
     * have its next update's answer held), {@code other} directly.
     */
    private static final class Clients implements AutoCloseable {
        final FreezableProxy proxy = new FreezableProxy("127.0.0.1", ZK.port());
        final String root = ZK.uniqueRoot("/resent-");
        final ZooKeeperMetadataStore proxiedStore = builder(proxy.address(), root).build();
        final ZooKeeperMetadataStore directStore = builder(ZK.connectString(), root).build();
        final FreezingBeforeUpdate freezing = new FreezingBeforeUpdate(proxiedStore, proxy);
        final List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        final Hybris subject = open(freezing, "subject");
        final Hybris other = open(directStore, "other");

        Clients() throws IOException {
        }

        private Hybris open(MetadataStore store, String id) {
            HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(store).clientId(id)
                    .deadline(Duration.ofSeconds(60));
            clouds.forEach(b::cloud);
            return Hybris.open(b.build());
        }

        /** Whether the key's metadata version is no longer {@code before} (seen directly). */
        boolean changed(MetadataKey key, MetadataVersion before) {
            return !directStore.read(key).orElseThrow().version().equals(before);
        }

        @Override
        public void close() throws IOException {
            subject.close();
            other.close();
            proxiedStore.close();
            directStore.close();
            proxy.close();
        }
    }

    @Override
    protected String serverHost() {
        return "127.0.0.1";
    }

    @Override
    protected int serverPort() {
        return ZK.port();
    }

    @Override
    protected String serverAddress() {
        return ZK.connectString();
    }

    @Override
    protected String newNamespace() {
        return ZK.uniqueRoot("/resent-");
    }

    @Override
    protected MetadataStore open(String address, String namespace) {
        return builder(address, namespace).build();
    }

    @Test
    void aTransactionWhoseReSentUpdateMeetsNewerWritesOnEveryKeyHasAnUnknownOutcomeNotAnAbort() throws Exception {
        MetadataKey a = new MetadataKey("box", "a");
        try (Clients c = new Clients()) {
            c.subject.tput("box", Map.of("a", bytes("old-a"), "b", bytes("old-b")));
            MetadataVersion before = c.directStore.read(a).orElseThrow().version();

            Throwable thrown = c.proxy.loseAnswer(() -> {
                c.freezing.arm();
                return c.subject.tput("box", Map.of("a", bytes("tx-a"), "b", bytes("tx-b")));
            }, () -> c.changed(a, before), () -> {
                assertThat(c.other.get("box", "a")).as("the transaction landed and is read")
                        .hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("tx-a")));
                c.other.put("box", "a", bytes("newer-a"));
                c.other.put("box", "b", bytes("newer-b"));
            });

            assertThat(thrown).as("a transaction that may have landed (and was read) is not reported aborted")
                    .isInstanceOf(MetadataUnavailableException.class).hasMessageContaining("outcome is unknown");
            assertThat(c.other.get("box", "a")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer-a")));
            assertThat(c.other.get("box", "b")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer-b")));
        }
    }

    @Test
    void aConditionalPutWhoseReSentUpdateMeetsANewerWriteHasAnUnknownOutcomeNotAFailedPrecondition()
            throws Exception {
        MetadataKey k = new MetadataKey("box", "k");
        try (Clients c = new Clients()) {
            VersionInfo first = c.subject.put("box", "k", bytes("first"));
            MetadataVersion before = c.directStore.read(k).orElseThrow().version();

            Throwable thrown = c.proxy.loseAnswer(() -> {
                c.freezing.arm();
                return c.subject.put("box", "k", bytes("mine"), PutOptions.ifMatch(first.version()));
            }, () -> c.changed(k, before), () -> {
                assertThat(c.other.get("box", "k")).as("the put landed and is read")
                        .hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("mine")));
                c.other.put("box", "k", bytes("newer"));
            });

            assertThat(thrown).as("a put that may have landed (and was read) has not failed its precondition")
                    .isInstanceOf(MetadataUnavailableException.class).hasMessageContaining("outcome is unknown");
            assertThat(c.other.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer")));
        }
    }
}
