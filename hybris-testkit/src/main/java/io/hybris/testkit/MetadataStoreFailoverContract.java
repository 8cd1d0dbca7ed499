/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeListener;
import io.hybris.ChangeSubscription;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The leader-failover scenario of a replicated {@link MetadataStore}, as an abstract JUnit Jupiter suite: a
 * three-server cluster loses its leader in the middle of a {@link FailoverWorkload} (writers and a reader on one
 * {@link Hybris} client over three in-memory clouds, f = 1): no acknowledged write may be lost, every call in
 * flight either completes or fails with a clear exception before its deadline, and the cluster elects a new
 * leader that the store keeps working through.
 *
 * <p>A store supplies the cluster through hooks:
 * <pre>{@code
 * class MyStoreFailoverTest extends MetadataStoreFailoverContract {
 *     private MyTestCluster cluster;
 *     private MyTestServer leader;
 *
 *     protected void startCluster() { cluster = MyTestCluster.start(3); }
 *     protected MetadataStore newStore() {   // timeouts well below deadline()
 *         return MyMetadataStore.builder().address(cluster.connectString()).operationTimeout(Duration.ofSeconds(8))
 *                 .build();
 *     }
 *     protected void killLeader() { leader = cluster.leader(); leader.kill(); }
 *     protected void assertNewLeader() { assertThat(cluster.awaitLeader()).isNotSameAs(leader); }
 *     protected void closeCluster() { if (cluster != null) cluster.close(); }
 * }
 * }</pre>
 *
 * <p>The order: {@link #startCluster()}, {@link #newStore()}, 60 acknowledged writes, {@link #killLeader()},
 * 60 more acknowledged writes, {@link #assertNewLeader()}, then the workload's verdict. After the test the client,
 * the store and then the cluster are closed.
 */
public abstract class MetadataStoreFailoverContract {
    private MetadataStore store;
    private Hybris hybris;

    /** The deadline of every call of the workload; no call may outlive it. */
    protected Duration deadline() {
        return Duration.ofSeconds(15);
    }

    /** Starts a three-server cluster (members on loopback, each of which can be killed). */
    protected abstract void startCluster() throws Exception;

    /**
     * A store on the running cluster whose connection and operation timeouts let it ride out a leader election
     * within {@link #deadline()}.
     */
    protected abstract MetadataStore newStore() throws Exception;

    /** Kills the current leader (abruptly, as a crash would), asserting that it was found and killed. */
    protected abstract void killLeader() throws Exception;

    /** Asserts that a server other than the killed one leads now, waiting for the election if need be. */
    protected abstract void assertNewLeader() throws Exception;

    /** Closes the cluster, whatever state it is in; called after each test, also after a failed start. */
    protected abstract void closeCluster() throws Exception;

    @AfterEach
    void closeClientStoreAndCluster() throws Exception {
        try {
            if (hybris != null) {
                hybris.close();
            }
            if (store != null) {
                store.close();
            }
        } finally {
            closeCluster();
        }
    }

    @Test
    void leaderLossLosesNoAcknowledgedWriteAndNoCallOutlivesItsDeadline() throws Exception {
        startCluster();
        store = newStore();
        hybris = Hybris.open(Hybris.builder()
                .f(1)
                .metadataStore(store)
                .cloud(new InMemoryCloudStore("c0"))
                .cloud(new InMemoryCloudStore("c1"))
                .cloud(new InMemoryCloudStore("c2"))
                .deadline(deadline())
                .build());

        FeedRecorder feed = new FeedRecorder();
        FailoverWorkload workload = FailoverWorkload.start(hybris, 3);
        try (ChangeSubscription subscription = hybris.subscribe(FailoverWorkload.CONTAINER, "",
                ChangeCursor.BEGINNING, feed)) {
            workload.awaitAcknowledged(60, Duration.ofSeconds(60));
            killLeader();
            workload.awaitAcknowledged(workload.acknowledged() + 60, Duration.ofSeconds(90));
            assertNewLeader();
            workload.stopAndVerify(deadline());
            // the change feed, followed across the leader loss, delivered every acknowledged write, per key in order
            Set<String> acknowledged = workload.acknowledgedVersions();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(feed.versions()).containsAll(acknowledged));
            assertThat(subscription.isActive()).isTrue();
            feed.assertPerKeyOrder();
            assertThat(feed.stopped()).isNull();
        }
    }

    /** A change listener that records what it was given. */
    private static final class FeedRecorder implements ChangeListener {
        private final Set<String> versions = ConcurrentHashMap.newKeySet();
        private final Map<String, List<Long>> sequences = new ConcurrentHashMap<>();
        private volatile HybrisException stopped;

        @Override
        public void onChange(Change change) {
            versions.add(change.version().version());
            sequences.computeIfAbsent(change.key(), k -> new CopyOnWriteArrayList<>()).add(change.version().sequence());
        }

        @Override
        public void onStopped(HybrisException cause) {
            stopped = cause;
        }

        Set<String> versions() {
            return versions;
        }

        HybrisException stopped() {
            return stopped;
        }

        /** Per key, versions came in commit order, each once (one subscription whose listener never failed). */
        void assertPerKeyOrder() {
            sequences.forEach((key, seqs) -> assertThat(seqs).as("versions of %s in delivery order", key)
                    .isSortedAccordingTo(Long::compare).doesNotHaveDuplicates());
        }
    }
}
