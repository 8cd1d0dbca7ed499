/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.Subscription;
import io.hybris.spi.support.ChangeLogCodec;
import io.hybris.spi.support.ChangeLogCompaction;
import io.hybris.spi.support.MetadataPaging;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;

/**
 * The change logs of a {@link ZooKeeperMetadataStore}: container {@code c}'s log is the znode
 * {@code <root>/.changes/<c>} (persistent, so its sequence counter never restarts), and each commit is a
 * persistent sequential child {@code c-<10 digits>} created in the commit's own {@code multi}, holding the keys and
 * values the commit wrote ({@link ChangeLogCodec}). ZooKeeper numbers sequential children in the order the leader
 * applies their transactions, so the log is in commit order; the change's sequence number is the child's plus one.
 * The log znode's data is the highest sequence number compaction removed ({@code 0} before any), written before
 * the children it covers are deleted. Thread-safe.
 */
final class ZooKeeperChangeLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperMetadataStore.class);
    static final String DIRECTORY = ".changes";
    private static final String CHILD = "c-";
    private static final int MAX_PIPELINED_READS = 256;
    /** How many sequence numbers beyond a page a read may try instead of listing the log. */
    private static final int RANGE_SLACK = 256;
    /** How many sequence numbers {@link #latest} probes at once, downwards from the log's count of creations. */
    private static final int LATEST_WINDOW = 16;
    /** Records a compaction deletes in one multi (about 60 bytes each in the request). */
    private static final int DELETE_BATCH = 250;
    /**
     * How many records a log may have had before compaction warns: ZooKeeper names sequential children after the
     * count of their parent's creations and cannot count past {@link Integer#MAX_VALUE}.
     */
    static final int SEQUENCE_WARNING = 1 << 30;

    private final ZooKeeperSession session;
    private final CuratorFramework client;
    private final String base;
    private final String description;
    private final int retention;
    /** Whether reads see every commit before them (not LOCAL): only then does a page say where the log ends. */
    private final boolean linearizableReads;
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    /** Containers whose log was found past {@link #SEQUENCE_WARNING} (each warned about once). */
    private final Set<String> nearLimit = ConcurrentHashMap.newKeySet();
    private final ChangeLogCompaction compaction;
    private final ChangeLogWatches watches;

    ZooKeeperChangeLog(ZooKeeperSession session, String root, String description, int retention,
                       boolean linearizableReads) {
        this.session = session;
        this.linearizableReads = linearizableReads;
        this.client = session.client();
        this.base = root + "/" + DIRECTORY;
        this.description = description;
        this.retention = retention;
        this.compaction = new ChangeLogCompaction(description, retention, this::compact);
        this.watches = new ChangeLogWatches(session, description);
    }

    String path(String container) {
        return base + "/" + container;
    }

    /** Makes sure the log znodes of the updates' containers exist (cached; {@link #forget} after a NONODE). */
    void ensure(List<MetadataUpdate> updates) throws Exception {
        for (MetadataUpdate u : updates) {
            String container = u.key().container();
            if (!known.contains(container)) {
                session.deadline().beforeRequest("creation", "change log of container " + container);
                try {
                    client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT)
                            .forPath(path(container), marker(0));
                } catch (KeeperException.NodeExistsException exists) {
                    // made by another client
                }
                known.add(container);
            }
        }
    }

    /** Forgets that the logs exist (one was deleted behind our back). */
    void forget() {
        known.clear();
    }

    /** The operations appending one record per container of {@code updates}, to add to their multi. */
    List<CuratorOp> appendOperations(List<MetadataUpdate> updates) throws Exception {
        Map<String, List<MetadataUpdate>> byContainer = new LinkedHashMap<>();
        for (MetadataUpdate u : updates) {
            byContainer.computeIfAbsent(u.key().container(), c -> new ArrayList<>()).add(u);
        }
        List<CuratorOp> ops = new ArrayList<>(byContainer.size());
        for (Map.Entry<String, List<MetadataUpdate>> e : byContainer.entrySet()) {
            ops.add(client.transactionOp().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(path(e.getKey()) + "/" + CHILD, ChangeLogCodec.encode(e.getValue())));
        }
        return ops;
    }

    /** Counts the commit for compaction. */
    void committed(List<MetadataUpdate> updates) {
        if (updates.size() == 1) {
            compaction.committed(updates.get(0).key().container()); // the common case, on every PUT: no stream
            return;
        }
        updates.stream().map(u -> u.key().container()).distinct().forEach(compaction::committed);
    }

    /**
     * Up to {@code limit} commits from sequence {@code from}. A reader that has caught up (the usual case: a
     * subscriber woken by a commit) reads the few sequence numbers that can exist, without listing the log: ZooKeeper
     * names a sequential child after the count of its parent's creations, so no record's sequence number (the name's
     * plus one) exceeds that count, which the log znode's stat gives ({@link #recordsCreated}). A reader further
     * behind lists the log's children, up to its retention.
     */
    MetadataChangePage changes(String container, long from, int limit) {
        MetadataPaging.checkLimit(limit);
        session.checkOpen();
        String what = "change log of container " + container;
        String log = path(container);
        try {
            session.beforeRead();
            Stat stat = client.checkExists().forPath(log);
            if (stat == null) {
                return new MetadataChangePage(List.of(), 0, false, linearizableReads ? 0 : Long.MAX_VALUE);
            }
            long newest = recordsCreated(stat);
            List<Long> candidates = newest - from < (long) limit + RANGE_SLACK
                    ? LongStream.rangeClosed(Math.max(from, 1), newest).boxed().toList()
                    : Arrays.stream(sequences(client.getChildren().forPath(log))).filter(s -> s >= from).boxed()
                            .toList();
            List<MetadataChange> changes = new ArrayList<>(Math.min(limit, candidates.size()));
            int next = 0;
            while (changes.size() < limit && next < candidates.size()) {
                int n = Math.min(Math.min(MAX_PIPELINED_READS, limit - changes.size()), candidates.size() - next);
                List<Long> batch = candidates.subList(next, next + n);
                next += n;
                List<CompletableFuture<CuratorEvent>> reads = new ArrayList<>(batch.size());
                for (long s : batch) {
                    reads.add(session.getDataInBackground(child(log, s)));
                }
                for (int j = 0; j < batch.size(); j++) {
                    CuratorEvent event = session.await(reads.get(j), "read", what);
                    KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
                    if (code == KeeperException.Code.NONODE) {
                        // no record by that number: compacted since (the marker read below covers it), or a number
                        // a deletion used
                        continue;
                    }
                    if (code != KeeperException.Code.OK) {
                        throw session.failure("read", what, KeeperException.create(code, child(log, batch.get(j))));
                    }
                    changes.add(ChangeLogCodec.decode(batch.get(j), ZooKeeperLayout.data(event.getData()),
                            child(log, batch.get(j)) + " on " + description));
                }
            }
            // a server that lags (LOCAL reads) may not have a commit another client's cursor is past: no end then
            return new MetadataChangePage(changes, readMarker(log), next < candidates.size(),
                    linearizableReads ? Math.max(0, newest) : Long.MAX_VALUE);
        } catch (KeeperException.NoNodeException e) {
            return new MetadataChangePage(List.of(), 0, false, linearizableReads ? 0 : Long.MAX_VALUE);
        } catch (Exception e) {
            throw session.failure("read", what, e);
        }
    }

    /**
     * The newest record's sequence number (the marker when the log holds none). No record's number exceeds the
     * count of the log's creations (see {@link #changes}), so the newest is found among the numbers just below it,
     * probed 16 at a time; the log is listed only when the newest 256 records were deleted (a compacted-away log).
     */
    long latest(String container) {
        session.checkOpen();
        String log = path(container);
        String what = "change log of container " + container;
        try {
            session.beforeRead();
            Stat stat = client.checkExists().forPath(log);
            if (stat == null) {
                return 0;
            }
            long newest = recordsCreated(stat);
            long lowest = Math.max(1, newest - RANGE_SLACK + 1);
            // downwards in windows: the newest record is the last one created, unless it was deleted since
            for (long top = newest; top >= lowest; top -= LATEST_WINDOW) {
                List<Long> found = existing(log, Math.max(lowest, top - LATEST_WINDOW + 1), top, what);
                if (!found.isEmpty()) {
                    return found.get(found.size() - 1);
                }
            }
            long[] sequences = sequences(client.getChildren().forPath(log));
            return sequences.length == 0 ? readMarker(log) : sequences[sequences.length - 1];
        } catch (KeeperException.NoNodeException e) {
            return 0;
        } catch (Exception e) {
            throw session.failure("read", what, e);
        }
    }

    /**
     * Runs {@code onChange} once when the log may hold a record at or after {@code from}: at once if one is there,
     * else at the log's next change. The log's persistent watch, shared by this store's subscriptions
     * ({@link ChangeLogWatches}), is set first and the log checked after, so a record created in between is seen by
     * one or the other; the check reads the few numbers the log's creations allow, without listing the log.
     */
    Subscription watch(String container, long from, Runnable onChange) {
        session.checkOpen();
        String log = path(container);
        String what = "change log of container " + container;
        ChangeLogWatches.OneShot subscription = null;
        try {
            try {
                subscription = watches.subscribe(log, onChange);
            } catch (KeeperException.UnimplementedException olderServer) {
                return watchByListing(log, from, onChange); // a server before 3.6: no persistent watches
            }
            Stat stat = client.checkExists().forPath(log);
            if (stat != null && hasRecordFrom(log, recordsCreated(stat), from, what)) {
                subscription.fire();
            }
            return subscription; // a log not created yet: the watch fires when it is
        } catch (Exception e) {
            if (subscription != null) {
                subscription.cancel();
            }
            throw session.failure("watch", what, e);
        }
    }

    /** {@link #watch} on a server without persistent watches: a child watch, set by listing the log. */
    private Subscription watchByListing(String log, long from, Runnable onChange) throws Exception {
        ZooKeeperWatch watch = new ZooKeeperWatch(session, description, log, onChange, true);
        try {
            List<String> children;
            try {
                children = client.getChildren().usingWatcher(watch).forPath(log);
            } catch (KeeperException.NoNodeException missing) {
                if (client.checkExists().usingWatcher(watch).forPath(log) == null) {
                    return watch; // fires when the log is created
                }
                children = List.of();
                watch.fire(); // created in between: read it
            }
            if (anyFrom(sequences(children), from)) {
                watch.fire();
            }
            return watch;
        } catch (Exception e) {
            watch.cancel();
            throw e;
        }
    }

    /** Whether a record at or after {@code from} exists; {@code newest} is the count of the log's creations. */
    private boolean hasRecordFrom(String log, long newest, long from, String what) throws Exception {
        if (newest < from) {
            return false; // no record's number exceeds the count of creations (see changes)
        }
        if (newest < 0 || newest - from >= RANGE_SLACK) {
            return anyFrom(sequences(client.getChildren().forPath(log)), from);
        }
        return !existing(log, Math.max(from, 1), newest, what).isEmpty();
    }

    /** The records among sequence numbers {@code [first, last]}, in order: one pipelined exists per number. */
    private List<Long> existing(String log, long first, long last, String what) throws Exception {
        List<CompletableFuture<CuratorEvent>> probes = new ArrayList<>((int) (last - first + 1));
        for (long s = first; s <= last; s++) {
            probes.add(session.existsInBackground(child(log, s)));
        }
        List<Long> found = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            CuratorEvent event = session.await(probes.get(i), "read", what);
            KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
            if (code == KeeperException.Code.OK) {
                found.add(first + i);
            } else if (code != KeeperException.Code.NONODE) {
                throw KeeperException.create(code, child(log, first + i));
            }
        }
        return found;
    }

    /** Containers whose log compaction found past {@link #SEQUENCE_WARNING}. */
    Set<String> nearSequenceLimit() {
        return Set.copyOf(nearLimit);
    }

    private void warnNearSequenceLimit(String container, long created) {
        if (created >= SEQUENCE_WARNING && nearLimit.add(container)) {
            LOG.warn("the change log of container {} on {} has used {} of the {} sequence numbers ZooKeeper can give"
                    + " its records (one per commit); once they run out, every commit to the container fails: write"
                    + " new keys to another container before then (see docs/zookeeper.md, the change log's sequence"
                    + " limit)", container, description, created, Integer.MAX_VALUE);
        }
    }

    /**
     * How many records the log znode ever had, from its stat: ZooKeeper names a sequential child after the count of
     * its parent's creations (so this is the newest record's sequence number, if it was not deleted), while the
     * {@code cversion} it reports counts creations and deletions, {@code 2 x created - numChildren}, as a 32-bit
     * number that wraps once that passes 2^31 (after about 2^30 commits), hence read unsigned.
     */
    static long recordsCreated(Stat stat) {
        return (Integer.toUnsignedLong(stat.getCversion()) + stat.getNumChildren()) / 2;
    }

    /**
     * Removes the oldest commits beyond the retention: the marker first, then the children it covers. A log within
     * its retention is left alone after one stat read.
     */
    void compact(String container) {
        if (session.isClosed()) {
            return;
        }
        String log = path(container);
        try {
            // the log's size is in its stat: a log within its retention (every log of a container with fewer
            // commits than that) is not listed at all, and a listing costs about 16 bytes per record
            Stat size = client.checkExists().forPath(log);
            if (size != null) {
                warnNearSequenceLimit(container, recordsCreated(size));
            }
            if (size == null || size.getNumChildren() <= retention) {
                return;
            }
            long[] sequences = sequences(client.getChildren().forPath(log));
            int dropped = sequences.length - retention;
            if (dropped <= 0) {
                return;
            }
            long through = sequences[dropped - 1];
            for (int attempt = 0; ; attempt++) {
                Stat stat = new Stat();
                long marker = parseMarker(client.getData().storingStatIn(stat).forPath(log));
                if (marker >= through) {
                    break;
                }
                try {
                    client.setData().withVersion(stat.getVersion()).forPath(log, marker(through));
                    break;
                } catch (KeeperException.BadVersionException raced) {
                    if (attempt >= 5) {
                        throw raced;
                    }
                }
            }
            // one multi per batch of records: one request and one transaction-log entry per batch instead of one
            // per record, so a compaction no longer puts a thousand writes in front of the commits (measured: the
            // p99 of a PUT under 16 callers; docs/benchmarks.md, scalability)
            for (int from = 0; from < dropped; from += DELETE_BATCH) {
                List<Long> batch = Arrays.stream(sequences, from, Math.min(dropped, from + DELETE_BATCH)).boxed()
                        .toList();
                List<CuratorOp> ops = new ArrayList<>(batch.size());
                for (long s : batch) {
                    ops.add(client.transactionOp().delete().forPath(child(log, s)));
                }
                try {
                    client.transaction().forOperations(ops);
                } catch (KeeperException.NoNodeException raced) {
                    deleteEach(log, batch, container); // another client deleted some first: the rest one by one
                }
            }
        } catch (KeeperException.NoNodeException gone) {
            // nothing to compact
        } catch (Exception e) {
            throw session.failure("compact", "change log of container " + container, e);
        }
    }

    /** Deletes the records one by one, in the background; NONODE (another client did it) counts as done. */
    private void deleteEach(String log, List<Long> sequences, String container) throws Exception {
        List<CompletableFuture<CuratorEvent>> deletes = new ArrayList<>(sequences.size());
        for (long s : sequences) {
            CompletableFuture<CuratorEvent> done = new CompletableFuture<>();
            client.delete().inBackground((c, event) -> done.complete(event)).forPath(child(log, s));
            deletes.add(done);
        }
        for (CompletableFuture<CuratorEvent> d : deletes) {
            session.await(d, "compact", "change log of container " + container);
        }
    }

    private long readMarker(String log) throws Exception {
        return parseMarker(client.getData().forPath(log));
    }

    /** The path of record {@code sequence}: ZooKeeper's 10-digit, zero-padded suffix is the sequence minus one. */
    static String child(String log, long sequence) {
        String digits = Long.toString(sequence - 1);
        StringBuilder path = new StringBuilder(log.length() + 1 + CHILD.length() + 10).append(log).append('/')
                .append(CHILD);
        for (int pad = digits.length(); pad < 10; pad++) {
            path.append('0');
        }
        return path.append(digits).toString();
    }

    /**
     * The sequence numbers of the log's children (ZooKeeper's suffix plus one), ascending; other children are ignored.
     * Parsed in place and sorted as primitives: a compaction lists the whole log (its retention and more, 22,000
     * names by default) on every tenth of the retention's commits.
     */
    static long[] sequences(List<String> children) {
        long[] out = new long[children.size()];
        int n = 0;
        for (String name : children) {
            long suffix = suffixOf(name);
            if (suffix >= 0) {
                out[n++] = suffix + 1;
            }
        }
        long[] sorted = n == out.length ? out : Arrays.copyOf(out, n);
        Arrays.sort(sorted);
        return sorted;
    }

    /** The 10-digit suffix of a record's name {@code c-NNNNNNNNNN}, or -1 for any other name. */
    private static long suffixOf(String name) {
        if (name.length() != CHILD.length() + 10 || !name.startsWith(CHILD)) {
            return -1;
        }
        long v = 0;
        for (int i = CHILD.length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Whether ascending {@code sequences} hold one at or after {@code from}. */
    private static boolean anyFrom(long[] sequences, long from) {
        return sequences.length > 0 && sequences[sequences.length - 1] >= from;
    }

    private static byte[] marker(long through) {
        return Long.toString(through).getBytes(StandardCharsets.US_ASCII);
    }

    private static long parseMarker(byte[] data) {
        if (data == null || data.length == 0) {
            return 0;
        }
        try {
            return Long.parseLong(new String(data, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The log znode's {@code cversion} (for tests). */
    long cversion(String container) throws Exception {
        return client.checkExists().forPath(path(container)).getCversion();
    }

    /** The shared watches of the logs (for tests). */
    ChangeLogWatches watches() {
        return watches;
    }

    @Override
    public void close() {
        watches.close();
        compaction.close();
    }
}
