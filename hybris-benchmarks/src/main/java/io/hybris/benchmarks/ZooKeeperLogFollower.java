/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A raw Curator subscriber of a ZooKeeper change log, on its own thread and with its own client (session): it
 * reads the log's children with a child watch, reads each child newer than the last one it delivered
 * ({@code getData}s sent back to back, then awaited), hands the records to its callback in order, and waits for
 * the watch to fire. That is the least a log follower does.
 *
 * <p>With {@code hybrisReads} it makes the reads Hybris's subscription makes per notification instead
 * (ZooKeeperChangeLog.changes then .watch): a {@code sync} (awaited), an {@code exists} of the log znode (its
 * {@code cversion} bounds the children's numbers), the records of the numbers after the last delivered up to it
 * (NONODE: none by that number), the log znode's data (the compaction marker), delivery, and then, to watch again,
 * an {@code exists} of the log znode (and a pipelined {@code exists} per number when its {@code cversion} says a
 * record may have arrived meanwhile); its watch is one persistent watch on the log znode, set at start, as the one
 * Hybris shares between a client's subscriptions — so the difference between the two baselines is the cost of
 * those reads, and the rest of Hybris's time is its own work.
 */
final class ZooKeeperLogFollower implements Runnable, Watcher {
    private static final long RECHECK_MILLIS = 30_000; // as ChangeSubscriber: a re-read in case a watch was lost
    private static final int RANGE = 512; // as ZooKeeperChangeLog: numbers read instead of listing the log
    private static final int WATCH_RANGE = 256; // as ZooKeeperChangeLog: numbers probed before a watch

    private final CuratorFramework client;
    private final String log;
    private final boolean hybrisReads;
    private final Consumer<byte[]> deliver;
    private final Consumer<Throwable> failed;
    private final Object lock = new Object();
    private boolean signalled; // guarded by lock
    private volatile boolean closed;
    private long last = -1; // suffix of the newest child delivered
    private Thread thread;

    ZooKeeperLogFollower(CuratorFramework client, String log, boolean hybrisReads, Consumer<byte[]> deliver,
                         Consumer<Throwable> failed) {
        this.client = client;
        this.log = log;
        this.hybrisReads = hybrisReads;
        this.deliver = deliver;
        this.failed = failed;
    }

    /** Starts following from the log's current end. */
    void start(String name) throws Exception {
        for (String c : client.getChildren().forPath(log)) {
            last = Math.max(last, suffix(c));
        }
        if (hybrisReads) {
            client.watchers().add().withMode(AddWatchMode.PERSISTENT).usingWatcher(this).forPath(log);
        }
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        try {
            while (!closed) {
                if (hybrisReads) {
                    CompletableFuture<CuratorEvent> synced = new CompletableFuture<>();
                    client.sync().inBackground((c, e) -> synced.complete(e)).forPath(log);
                    synced.get(30, TimeUnit.SECONDS);
                    List<byte[]> records = readUpTo(client.checkExists().forPath(log).getCversion() - 1);
                    client.getData().forPath(log); // the compaction marker
                    records.forEach(deliver);
                    synchronized (lock) {
                        signalled = false; // as a subscription registering with the shared watch
                    }
                    if (anyAfterLast(client.checkExists().forPath(log).getCversion() - 1)) {
                        continue; // as ZooKeeperChangeLog.watch: a commit already there fires at once
                    }
                } else {
                    read(client.getChildren().usingWatcher(this).forPath(log)).forEach(deliver);
                }
                awaitSignal();
            }
        } catch (Exception e) {
            if (!closed) {
                failed.accept(e);
            }
        }
    }

    private List<String> newer(List<String> children) {
        List<String> out = new ArrayList<>();
        for (String c : children) {
            if (suffix(c) > last) {
                out.add(c);
            }
        }
        out.sort(null); // fixed-width suffixes: name order is sequence order
        return out;
    }

    /** The records of the children newer than the last delivered, in order; moves {@code last} past them. */
    private List<byte[]> read(List<String> children) throws Exception {
        List<String> wanted = newer(children);
        List<CompletableFuture<CuratorEvent>> reads = new ArrayList<>(wanted.size());
        for (String c : wanted) {
            CompletableFuture<CuratorEvent> r = new CompletableFuture<>();
            client.getData().inBackground((cl, e) -> r.complete(e)).forPath(log + "/" + c);
            reads.add(r);
        }
        List<byte[]> records = new ArrayList<>(wanted.size());
        for (int i = 0; i < wanted.size(); i++) {
            CuratorEvent e = reads.get(i).get(30, TimeUnit.SECONDS);
            if (e.getResultCode() != KeeperException.Code.OK.intValue()) {
                throw KeeperException.create(KeeperException.Code.get(e.getResultCode()), e.getPath());
            }
            records.add(e.getData());
            last = suffix(wanted.get(i));
        }
        return records;
    }

    /** The records numbered after the last delivered up to {@code newest}, skipping numbers without one. */
    private List<byte[]> readUpTo(long newest) throws Exception {
        if (newest - last > RANGE) {
            return read(client.getChildren().forPath(log));
        }
        List<CompletableFuture<CuratorEvent>> reads = new ArrayList<>();
        for (long n = last + 1; n <= newest; n++) {
            CompletableFuture<CuratorEvent> r = new CompletableFuture<>();
            client.getData().inBackground((cl, e) -> r.complete(e)).forPath(child(n));
            reads.add(r);
        }
        List<byte[]> records = new ArrayList<>(reads.size());
        long n = last;
        for (CompletableFuture<CuratorEvent> read : reads) {
            n++;
            CuratorEvent e = read.get(30, TimeUnit.SECONDS);
            if (e.getResultCode() == KeeperException.Code.NONODE.intValue()) {
                continue;
            }
            if (e.getResultCode() != KeeperException.Code.OK.intValue()) {
                throw KeeperException.create(KeeperException.Code.get(e.getResultCode()), e.getPath());
            }
            records.add(e.getData());
            last = n;
        }
        return records;
    }

    /** Whether a record numbered after the last delivered exists, up to {@code newest} (as ZooKeeperChangeLog). */
    private boolean anyAfterLast(long newest) throws Exception {
        if (newest <= last) {
            return false;
        }
        if (newest - last > WATCH_RANGE) {
            return !newer(client.getChildren().forPath(log)).isEmpty();
        }
        List<CompletableFuture<CuratorEvent>> probes = new ArrayList<>();
        for (long n = last + 1; n <= newest; n++) {
            CompletableFuture<CuratorEvent> r = new CompletableFuture<>();
            client.checkExists().inBackground((cl, e) -> r.complete(e)).forPath(child(n));
            probes.add(r);
        }
        boolean found = false;
        for (CompletableFuture<CuratorEvent> probe : probes) {
            found |= probe.get(30, TimeUnit.SECONDS).getResultCode() == KeeperException.Code.OK.intValue();
        }
        return found;
    }

    private String child(long suffix) {
        return log + "/c-" + String.format("%010d", suffix);
    }

    private static long suffix(String child) {
        return Long.parseLong(child.substring(child.length() - 10));
    }

    @Override
    public void process(WatchedEvent event) {
        if (event.getType() == Event.EventType.NodeChildrenChanged
                || event.getState() == Event.KeeperState.Expired) {
            synchronized (lock) {
                signalled = true;
                lock.notifyAll();
            }
        }
    }

    private void awaitSignal() throws InterruptedException {
        synchronized (lock) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECHECK_MILLIS);
            while (!signalled && !closed) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            signalled = false;
        }
    }

    void close() {
        closed = true;
        synchronized (lock) {
            lock.notifyAll();
        }
        client.close();
    }
}
