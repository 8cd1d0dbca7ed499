/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@link FailoverWorkload}'s verdict judges what its reader read: a read older than a write acknowledged before it
 * began fails it. Before, the reader only timed its calls, so a store answering reads from a server that lost its
 * leadership (the stale read a failover can cause) passed as long as the final values were right.
 */
class FailoverWorkloadStaleReadTest {
    private static final Duration AWAIT = Duration.ofSeconds(30);

    /**
     * A deposed leader: while frozen it answers reads of {@code ha/key-0} with the value that key had before its
     * last update and holds updates (the writer waits in its commit); thawed, it forwards everything.
     */
    static final class DeposedLeader extends ForwardingMetadataStore {
        private final Object lock = new Object();
        private final AtomicInteger staleWhileHeld = new AtomicInteger();
        private Optional<VersionedValue> beforeLastUpdate = Optional.empty();
        private boolean frozen;
        private int held;

        DeposedLeader(MetadataStore delegate) {
            super(delegate);
        }

        private static boolean watched(MetadataKey key) {
            return key.container().equals(FailoverWorkload.CONTAINER) && key.key().equals("key-0");
        }

        @Override
        public Optional<VersionedValue> read(MetadataKey key) {
            synchronized (lock) {
                if (frozen && watched(key)) {
                    if (held > 0) { // the only writer waits in its commit: this is the reader's read
                        staleWhileHeld.incrementAndGet();
                    }
                    return beforeLastUpdate;
                }
            }
            return super.read(key);
        }

        @Override
        public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
            synchronized (lock) {
                held++;
                try {
                    while (frozen) {
                        lock.wait();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    held--;
                }
                Optional<VersionedValue> before = super.read(update.key());
                super.conditionalUpdate(update);
                if (watched(update.key())) {
                    beforeLastUpdate = before;
                }
            }
        }

        void freeze() {
            synchronized (lock) {
                frozen = true;
            }
        }

        void thaw() {
            synchronized (lock) {
                frozen = false;
                lock.notifyAll();
            }
        }
    }

    private static Hybris open(MetadataStore store) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(store).deadline(AWAIT)
                .gcEnabled(false); // superseded versions stay readable, as a deposed leader's reads would find them
        for (int i = 0; i < 3; i++) {
            b.cloud(new InMemoryCloudStore("c" + i));
        }
        return Hybris.open(b.build());
    }

    @Test
    void readsFromADeposedLeaderFailTheVerdict() throws Exception {
        DeposedLeader store = new DeposedLeader(new InMemoryMetadataStore());
        try (Hybris h = open(store)) {
            FailoverWorkload workload = FailoverWorkload.start(h, 1);
            workload.awaitAcknowledged(5, AWAIT);
            store.freeze();
            await().atMost(AWAIT).until(() -> store.staleWhileHeld.get() >= 3);
            store.thaw();
            workload.awaitAcknowledged(workload.acknowledged() + 3, AWAIT);
            assertThatThrownBy(() -> workload.stopAndVerify(AWAIT)).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("reads older than a write acknowledged before they began")
                    .hasMessageContaining("was acknowledged before the read began");
        } finally {
            store.close();
        }
    }

    @Test
    void anHonestStorePassesTheVerdict() throws Exception {
        DeposedLeader store = new DeposedLeader(new InMemoryMetadataStore()); // never frozen
        try (Hybris h = open(store)) {
            FailoverWorkload workload = FailoverWorkload.start(h, 2);
            workload.awaitAcknowledged(200, AWAIT);
            workload.stopAndVerify(AWAIT);
            assertThat(workload.failureTypes()).isEmpty();
        } finally {
            store.close();
        }
    }
}
