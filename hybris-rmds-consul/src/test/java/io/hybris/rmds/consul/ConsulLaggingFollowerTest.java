/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.ChangeCursor;
import io.hybris.ChangeSubscription;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.MetadataUnavailableException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.testkit.ConsulTestAgent;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A 3-server cluster on loopback whose servers reach each other's Raft and RPC through {@link FreezableProxy}s, so
 * a follower can be cut off from the leader's log while it keeps answering its HTTP API: it lags for real, serving
 * {@code stale} reads from an old Raft state while the leader and the third server commit on. Checks what the read
 * modes promise there: a stale change log may be behind, but a page of it never skips a commit, so the change feed
 * (whose cursor moves past the last commit of each page) loses none, also when the store's address spreads requests
 * over servers at different Raft points (a load balancer in front of the servers, or a client agent that moves to
 * another server).
 */
class ConsulLaggingFollowerTest {
    private static final String CONTAINER = "c";
    private static final int BEFORE = 10;
    private static final int AFTER = 100;
    private static final FreezableProxy[] RAFT = new FreezableProxy[3];
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static ConsulTestAgent.Cluster cluster;

    private final List<AutoCloseable> closing = new ArrayList<>();
    private ConsulTestAgent leader;
    private ConsulTestAgent follower;
    private FreezableProxy followerRaft;
    private String prefix;

    @BeforeAll
    static void startCluster() {
        cluster = ConsulTestAgent.cluster(3, (server, serverPort) -> {
            String address = "127.0.0." + (server + 2);
            try {
                if (RAFT[server] != null) {
                    RAFT[server].close(); // a start-up retried after a port clash
                }
                RAFT[server] = new FreezableProxy("127.0.0.1", serverPort, InetAddress.getByName(address), serverPort);
                return address;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        for (FreezableProxy p : RAFT) {
            if (p != null) {
                p.close();
            }
        }
    }

    @BeforeEach
    void pickFollower() {
        leader = cluster.awaitAllVoters(Duration.ofSeconds(30));
        int f = cluster.servers().indexOf(cluster.servers().stream().filter(s -> s != leader).findFirst()
                .orElseThrow());
        follower = cluster.servers().get(f);
        followerRaft = RAFT[f];
        prefix = "lag" + PREFIXES.incrementAndGet();
    }

    @AfterEach
    void thawAndClose() throws Exception {
        for (FreezableProxy p : RAFT) {
            p.thaw();
        }
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private ConsulMetadataStore store(String address, ConsulMetadataStore.ReadMode mode) {
        return store(address, mode, Duration.ofSeconds(8));
    }

    private ConsulMetadataStore store(String address, ConsulMetadataStore.ReadMode mode, Duration timeouts) {
        ConsulMetadataStore s = ConsulMetadataStore.builder().address(address).keyPrefix(prefix).readMode(mode)
                .readTimeout(timeouts).operationTimeout(timeouts)
                .watchWait(Duration.ofSeconds(1)) // a watch parked on the lagging follower asks again soon
                .build();
        closing.add(s);
        return s;
    }

    private static void commit(ConsulMetadataStore writer, int from, int to) throws Exception {
        for (int i = from; i <= to; i++) {
            writer.conditionalUpdate(new MetadataUpdate(new MetadataKey(CONTAINER, "k" + i),
                    ("v" + i).getBytes(StandardCharsets.UTF_8), MetadataVersion.ABSENT));
        }
    }

    /**
     * Commits 1 to {@value #BEFORE}, waits until the follower has them, cuts it off, and commits up to
     * {@value #BEFORE} + {@value #AFTER} through the leader; returns a stale store reading from the follower alone.
     */
    private ConsulMetadataStore followerLagsAtBefore() throws Exception {
        ConsulMetadataStore writer = store(leader.address(), ConsulMetadataStore.ReadMode.CONSISTENT);
        ConsulMetadataStore onFollower = store(follower.address(), ConsulMetadataStore.ReadMode.STALE);
        commit(writer, 1, BEFORE);
        await().atMost(Duration.ofSeconds(20)).until(() -> onFollower.latestChange(CONTAINER) == BEFORE);
        followerRaft.freeze();
        commit(writer, BEFORE + 1, BEFORE + AFTER);
        assertThat(writer.latestChange(CONTAINER)).isEqualTo(BEFORE + AFTER);
        assertThat(onFollower.latestChange(CONTAINER)).as("the cut-off follower lags").isEqualTo(BEFORE);
        return onFollower;
    }

    /** Reads a page and checks it holds the commits right after {@code cursor}, without a gap; returns them. */
    private static List<Long> contiguousPage(ConsulMetadataStore reader, long cursor) {
        MetadataChangePage page = reader.changes(CONTAINER, cursor, 256);
        List<Long> sequences = page.changes().stream().map(MetadataChange::sequence).toList();
        assertThat(sequences).as("a page from cursor %d: the commits right after it, none skipped", cursor)
                .containsExactlyElementsOf(LongStream.range(cursor, cursor + sequences.size()).boxed().toList());
        for (MetadataChange c : page.changes()) {
            assertThat(c.updates()).singleElement().satisfies(u -> {
                assertThat(u.key()).isEqualTo("k" + c.sequence());
                assertThat(new String(u.value(), StandardCharsets.UTF_8)).isEqualTo("v" + c.sequence());
            });
        }
        return sequences;
    }

    @Test
    void aStaleReaderOnALaggingFollowerIsBehindButSkipsNothingAndCatchesUp() throws Exception {
        ConsulMetadataStore onFollower = followerLagsAtBefore();

        List<Long> seen = new ArrayList<>(contiguousPage(onFollower, 1));
        assertThat(seen).as("what the follower has: behind, documented for stale reads").hasSize(BEFORE);
        assertThat(onFollower.read(new MetadataKey(CONTAINER, "k" + (BEFORE + 1)))).as("stale read").isEmpty();

        followerRaft.thaw();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            seen.addAll(contiguousPage(onFollower, seen.size() + 1));
            return seen.size() == BEFORE + AFTER;
        });
    }

    @Test
    void consistentAndDefaultReadsOnACutOffFollowerAreFreshOrFailNeverStale() throws Exception {
        Map<ConsulMetadataStore.ReadMode, ConsulMetadataStore> stores =
                new EnumMap<>(ConsulMetadataStore.ReadMode.class);
        for (ConsulMetadataStore.ReadMode mode : List.of(ConsulMetadataStore.ReadMode.CONSISTENT,
                ConsulMetadataStore.ReadMode.DEFAULT)) {
            // opened before the follower is cut off: it soon loses its leader, and holds requests while it has none
            stores.put(mode, store(follower.address(), mode, Duration.ofSeconds(2)));
        }
        followerLagsAtBefore();
        MetadataKey newest = new MetadataKey(CONTAINER, "k" + (BEFORE + AFTER));
        stores.forEach((mode, s) -> {
            try {
                assertThat(s.read(newest)).as("%s read of the newest key", mode).isPresent();
            } catch (MetadataUnavailableException forwardingFailed) {
                // the follower cannot reach a leader: a clear failure, not a stale answer
            }
            try {
                assertThat(s.latestChange(CONTAINER)).as("%s latest change", mode).isEqualTo(BEFORE + AFTER);
            } catch (MetadataUnavailableException forwardingFailed) {
                // as above
            }
        });
    }

    @Test
    void aSubscriberReadingThroughServersAtDifferentRaftPointsGetsEveryCommitInOrder() throws Exception {
        List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        Hybris writer = hybris(store(leader.address(), ConsulMetadataStore.ReadMode.CONSISTENT), clouds);
        ConsulMetadataStore onFollower = store(follower.address(), ConsulMetadataStore.ReadMode.STALE);
        for (int i = 1; i <= BEFORE; i++) {
            writer.put(CONTAINER, "k" + i, new byte[]{(byte) i});
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> onFollower.latestChange(CONTAINER) == BEFORE);
        followerRaft.freeze();
        for (int i = BEFORE + 1; i <= BEFORE + AFTER; i++) {
            writer.put(CONTAINER, "k" + i, new byte[]{(byte) i});
        }
        assertThat(onFollower.latestChange(CONTAINER)).as("the cut-off follower lags").isEqualTo(BEFORE);
        RoundRobinHttpProxy balancer = new RoundRobinHttpProxy(List.of(leader.address(), follower.address()));
        closing.add(balancer);
        Hybris reader = hybris(store(balancer.address(), ConsulMetadataStore.ReadMode.STALE), clouds);

        List<String> delivered = new CopyOnWriteArrayList<>();
        try (ChangeSubscription s = reader.subscribe(CONTAINER, "", ChangeCursor.BEGINNING,
                change -> delivered.add(change.key()))) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> s.cursor().equals(new ChangeCursor(BEFORE + AFTER + 1, 0)));
        }
        assertThat(delivered).as("every commit delivered once, in commit order, while the follower still lags")
                .containsExactlyElementsOf(IntStream.rangeClosed(1, BEFORE + AFTER).mapToObj(i -> "k" + i)
                        .toList());
    }

    private Hybris hybris(ConsulMetadataStore metadata, List<CloudStore> clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata)
                .deadline(Duration.ofSeconds(20));
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        closing.add(0, h); // before its metadata store
        return h;
    }

    @Test
    void pagesReadThroughServersAtDifferentRaftPointsSkipNoCommit() throws Exception {
        followerLagsAtBefore();
        RoundRobinHttpProxy balancer = new RoundRobinHttpProxy(List.of(leader.address(), follower.address()));
        closing.add(balancer);
        ConsulMetadataStore reader = store(balancer.address(), ConsulMetadataStore.ReadMode.STALE);

        // each page's requests alternate between the leader and the lagging follower; an extra request every other
        // page shifts which server answers which of a page's requests
        List<Long> seen = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            seen.addAll(contiguousPage(reader, seen.size() + 1));
            if (i % 4 < 2) {
                reader.latestChange(CONTAINER);
            }
        }
        followerRaft.thaw();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            seen.addAll(contiguousPage(reader, seen.size() + 1));
            return seen.size() == BEFORE + AFTER;
        });
        assertThat(seen).containsExactlyElementsOf(LongStream.rangeClosed(1, BEFORE + AFTER).boxed().toList());
    }
}
