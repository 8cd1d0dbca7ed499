/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The raw Curator baseline of the change feed on ZooKeeper, doing a Hybris PUT's metadata work the same way: the
 * writer reads the key ({@code sync} and {@code getData} sent back to back, as the ZooKeeper store reads), then
 * commits one {@code multi} of the key's {@code setData} (version-checked) and a {@code PERSISTENT_SEQUENTIAL}
 * child {@code c-} of {@code <root>/.changes/feed} holding the record (the same sizes as Hybris's entry and
 * record). Each subscriber has its own Curator client (own session) and follows the log with
 * {@link ZooKeeperLogFollower}.
 */
final class ZooKeeperRawFeedSide implements FeedSide {
    private final String name;
    private final String connect;
    private final String root;
    private final boolean hybrisReads;
    private final byte[] value;
    private final int recordBytes;
    private final List<ZooKeeperLogFollower> followers = new ArrayList<>();
    private CuratorFramework writer;
    private String log;
    private long next;

    /**
     * @param hybrisReads whether the subscribers also make the reads Hybris's subscription makes per
     *                    notification (see {@link ZooKeeperLogFollower})
     */
    ZooKeeperRawFeedSide(String name, String connect, String root, boolean hybrisReads, int entryBytes,
                         int recordBytes) {
        this.name = name;
        this.connect = connect;
        this.root = root;
        this.hybrisReads = hybrisReads;
        this.value = new byte[entryBytes];
        this.recordBytes = recordBytes;
    }

    @Override
    public String name() {
        return name;
    }

    static CuratorFramework client(String connect) throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.newClient(connect, new RetryNTimes(3, 100));
        c.start();
        if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no ZooKeeper connection to " + connect);
        }
        return c;
    }

    @Override
    public void open(int subscribers, FeedRecorder recorder) throws Exception {
        writer = client(connect);
        log = root + "/.changes/" + HybrisFeedSide.CONTAINER;
        writer.create().creatingParentsIfNeeded().forPath(log, "0".getBytes(StandardCharsets.US_ASCII));
        for (int k = 0; k < HybrisFeedSide.KEYS; k++) {
            writer.create().creatingParentsIfNeeded().forPath(keyPath(k), value);
        }
        for (int s = 0; s < subscribers; s++) {
            int subscriber = s;
            ZooKeeperLogFollower f = new ZooKeeperLogFollower(client(connect), log, hybrisReads,
                    record -> recorder.delivered(subscriber, idOf(record)), e -> recorder.failed(subscriber, e));
            followers.add(f);
            f.start(name + "-" + s);
        }
    }

    private String keyPath(long n) {
        return root + "/" + HybrisFeedSide.CONTAINER + "/" + HybrisFeedSide.key(n);
    }

    /** The record of change {@code n}: its number on the first line, padded to Hybris's record size. */
    static byte[] record(long n, int size) {
        byte[] id = (n + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] r = new byte[Math.max(size, id.length)];
        System.arraycopy(id, 0, r, 0, id.length);
        return r;
    }

    static String idOf(byte[] record) {
        int nl = 0;
        while (record[nl] != '\n') {
            nl++;
        }
        return new String(record, 0, nl, StandardCharsets.US_ASCII);
    }

    @Override
    public String write() throws Exception {
        long n = next++;
        String path = keyPath(n);
        Stat stat = new Stat();
        pipelinedSyncRead(path, stat);
        writer.transaction().forOperations(
                writer.transactionOp().setData().withVersion(stat.getVersion()).forPath(path, value),
                writer.transactionOp().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                        .forPath(log + "/c-", record(n, recordBytes)));
        return Long.toString(n);
    }

    /** The store's linearizable read: {@code sync} and {@code getData} back to back on the raw handle. */
    private byte[] pipelinedSyncRead(String path, Stat stat) throws Exception {
        ZooKeeper zk = writer.getZookeeperClient().getZooKeeper();
        CompletableFuture<Integer> synced = new CompletableFuture<>();
        zk.sync(root, (rc, p, ctx) -> synced.complete(rc), null);
        byte[] data = zk.getData(path, false, stat);
        if (synced.get(10, TimeUnit.SECONDS) != KeeperException.Code.OK.intValue()) {
            throw new IllegalStateException("sync failed");
        }
        return data;
    }

    @Override
    public void close() {
        followers.forEach(ZooKeeperLogFollower::close);
        followers.clear();
        if (writer != null) {
            writer.close();
        }
    }
}
