/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The metadata path of Hybris on ZooKeeper, side by side with raw Curator doing the same ZooKeeper work on the
 * same server in the same run:
 * <ul>
 *   <li>{@code hybrisGet} (metadata read with {@code sync} + one in-memory cloud read + SHA-256) against
 *       {@code curatorSyncRead} ({@code sync()} + {@code getData()});</li>
 *   <li>{@code hybrisPut} (metadata read, two in-memory cloud writes, conditional update, GC of the replaced version)
 *       against {@code curatorReadCas} ({@code sync()} + {@code getData()} + {@code setData().withVersion()}),
 *       {@code zookeeperPipelinedReadCas} (the same read pipelined, as the store sends it) and
 *       {@code zookeeperPipelinedReadCasWithLog}: that read, then the ZooKeeper work a Hybris commit does — one
 *       {@code multi} of the version-checked {@code setData} and a sequential change-log record (64 bytes), and the
 *       compaction of a log as long as the Hybris store's: it keeps 20,000 records (the default retention) and every
 *       2,000 commits deletes those beyond, oldest first, 250 per {@code multi} (until 2026-11-25 it kept at most
 *       250, a smaller tree than Hybris commits to).</li>
 * </ul>
 * Values are small ({@code valueBytes}) so the metadata path dominates.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(3)
public class MetadataPathBenchmark {
    private static final int KEYS = 256;
    /** Records the raw change log keeps: the Hybris store's default retention. */
    private static final int LOG_RETENTION =
            io.hybris.spi.support.StandardOptions.CHANGES_RETENTION.defaultValue().orElseThrow();
    /** Commits between two compactions of the raw log: the Hybris store's average. */
    private static final int LOG_COMPACT_INTERVAL = io.hybris.spi.support.ChangeLogCompaction.interval(LOG_RETENTION);
    /** Records deleted per {@code multi}, as the Hybris store's compaction. */
    private static final int LOG_DELETE_BATCH = 250;

    @Param({"1024"})
    public int valueBytes;

    private TestingServer zookeeper;
    private Hybris hybris;
    private CuratorFramework curator;
    private byte[] value;
    private final AtomicInteger next = new AtomicInteger();
    private final java.util.ArrayDeque<String> records = new java.util.ArrayDeque<>();
    private long commits;
    private final byte[] record = new byte[64];

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        zookeeper = new TestingServer(true);
        value = new byte[valueBytes];
        hybris = Hybris.open(Hybris.builder()
                .f(1)
                .metadataStore("zookeeper", Map.of("connect", zookeeper.getConnectString(), "root", "/bench"))
                .cloud(new InMemoryCloudStore("m1"))
                .cloud(new InMemoryCloudStore("m2"))
                .cloud(new InMemoryCloudStore("m3"))
                .deadline(Duration.ofSeconds(30))
                .build());
        curator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryNTimes(3, 100));
        curator.start();
        curator.blockUntilConnected();
        for (int i = 0; i < KEYS; i++) {
            hybris.put("bench", "key-" + i, value);
            curator.create().creatingParentsIfNeeded().forPath("/raw/key-" + i, value);
        }
        curator.create().creatingParentsIfNeeded().forPath("/rawlog");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        hybris.close();
        curator.close();
        zookeeper.close();
    }

    private int key() {
        return Math.floorMod(next.getAndIncrement(), KEYS);
    }

    @Benchmark
    public Optional<byte[]> hybrisGet() {
        return hybris.get("bench", "key-" + key());
    }

    @Benchmark
    public void hybrisPut() {
        hybris.put("bench", "key-" + key(), value);
    }

    /** Curator's sync is always asynchronous: wait for it, as a linearizable read must. */
    private void syncAndWait(String path) throws Exception {
        CompletableFuture<Void> synced = new CompletableFuture<>();
        curator.sync().inBackground((c, event) -> synced.complete(null)).forPath(path);
        synced.get(10, TimeUnit.SECONDS);
    }

    @Benchmark
    public byte[] curatorSyncRead() throws Exception {
        String path = "/raw/key-" + key();
        syncAndWait(path);
        return curator.getData().forPath(path);
    }

    /**
     * The same linearizable read in one round trip, as the ZooKeeper store does it: sync and getData sent back
     * to back on the raw ZooKeeper handle (a session's requests are served in order), then the sync's answer.
     */
    private byte[] pipelinedSyncRead(String path, Stat stat) throws Exception {
        ZooKeeper zk = curator.getZookeeperClient().getZooKeeper();
        CompletableFuture<Integer> synced = new CompletableFuture<>();
        zk.sync(path, (rc, p, ctx) -> synced.complete(rc), null);
        byte[] data = zk.getData(path, false, stat);
        if (synced.get(10, TimeUnit.SECONDS) != KeeperException.Code.OK.intValue()) {
            throw new IllegalStateException("sync failed");
        }
        return data;
    }

    @Benchmark
    public byte[] zookeeperPipelinedSyncRead() throws Exception {
        return pipelinedSyncRead("/raw/key-" + key(), new Stat());
    }

    @Benchmark
    public Stat zookeeperPipelinedReadCas() throws Exception {
        String path = "/raw/key-" + key();
        Stat stat = new Stat();
        pipelinedSyncRead(path, stat);
        return curator.setData().withVersion(stat.getVersion()).forPath(path, value);
    }

    /**
     * The pipelined read, then the commit's ZooKeeper work as Hybris does it: the version-checked {@code setData}
     * and a sequential change-log record in one {@code multi}; the log compacted as the Hybris store's (class comment).
     * The fair baseline for {@code hybrisPut} (same requests); JMH runs it on one thread.
     */
    @Benchmark
    public Object zookeeperPipelinedReadCasWithLog() throws Exception {
        String path = "/raw/key-" + key();
        Stat stat = new Stat();
        pipelinedSyncRead(path, stat);
        var results = curator.transaction().forOperations(
                curator.transactionOp().setData().withVersion(stat.getVersion()).forPath(path, value),
                curator.transactionOp().create().withMode(org.apache.zookeeper.CreateMode.PERSISTENT_SEQUENTIAL)
                        .forPath("/rawlog/c-", record));
        records.add(results.get(1).getResultPath());
        if (++commits % LOG_COMPACT_INTERVAL == 0) {
            while (records.size() > LOG_RETENTION) {
                java.util.List<CuratorOp> deletes = new java.util.ArrayList<>(LOG_DELETE_BATCH);
                while (deletes.size() < LOG_DELETE_BATCH && records.size() > LOG_RETENTION) {
                    deletes.add(curator.transactionOp().delete().forPath(records.poll()));
                }
                curator.transaction().forOperations(deletes);
            }
        }
        return results;
    }

    @Benchmark
    public Stat curatorReadCas() throws Exception {
        String path = "/raw/key-" + key();
        Stat stat = new Stat();
        syncAndWait(path);
        curator.getData().storingStatIn(stat).forPath(path);
        return curator.setData().withVersion(stat.getVersion()).forPath(path, value);
    }
}
