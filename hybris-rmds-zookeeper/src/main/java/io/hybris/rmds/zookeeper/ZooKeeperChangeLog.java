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
 * A log znode can name 2^31 records: a commit its log refuses for that goes to the log's next <em>generation</em>,
 * created then ({@link ChangeLogNames}), so a container takes any number of commits. The log znode's data is the
 * highest sequence number compaction removed ({@code 0} before any), written before the children it covers are
 * deleted. Thread-safe.
 */
final class ZooKeeperChangeLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperMetadataStore.class);
    static final String DIRECTORY = ".changes";
    private static final int MAX_PIPELINED_READS = 256;
    /** How many sequence numbers beyond a page a read may try instead of listing the log. */
    private static final int RANGE_SLACK = 256;
    /** How many sequence numbers {@link #latest} probes at once, downwards from the log's count of creations. */
    private static final int LATEST_WINDOW = 16;
    /** Records a compaction deletes in one multi (about 60 bytes each in the request). */
    private static final int DELETE_BATCH = 250;

    private final ZooKeeperSession session;
    private final CuratorFramework client;
    private final String base;
    private final String description;
    private final int retention;
    /** Whether reads see every commit before them (not LOCAL): only then does a page say where the log ends. */
    private final boolean linearizableReads;
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    /** The generation this client writes each container's records to (0 until a commit finds it full). */
    private final Map<String, Integer> writing = new ConcurrentHashMap<>();
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
                            .forPath(path(container), ChangeLogNames.marker(0));
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
        writing.clear();
    }

    /** The creation of one container's record in a commit's multi, and the generation it writes to. */
    record Append(String container, int generation, CuratorOp op) {
    }

    /** The operations appending one record per container of {@code updates}, to add to their multi. */
    List<Append> appendOperations(List<MetadataUpdate> updates) throws Exception {
        Map<String, List<MetadataUpdate>> byContainer = new LinkedHashMap<>();
        for (MetadataUpdate u : updates) {
            byContainer.computeIfAbsent(u.key().container(), c -> new ArrayList<>()).add(u);
        }
        List<Append> ops = new ArrayList<>(byContainer.size());
        for (Map.Entry<String, List<MetadataUpdate>> e : byContainer.entrySet()) {
            int generation = writing.getOrDefault(e.getKey(), 0);
            ops.add(new Append(e.getKey(), generation, client.transactionOp().create()
                    .withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(ChangeLogNames.generationPath(path(e.getKey()), generation) + "/" + ChangeLogNames.CHILD,
                            ChangeLogCodec.encode(e.getValue()))));
        }
        return ops;
    }

    /**
     * Writes the container's records to the generation after {@code full}, whose last name a commit found taken
     * (NODEEXISTS for its record: nothing of that multi was applied), creating it if no other writer did. Every
     * record a full generation holds was applied before that refusal, so records of the next one come after them.
     * If another writer made it, later ones may exist too (a client new to the log starts at the first): the
     * newest is looked for, one {@code exists} per generation, so that a write is not refused by each in turn.
     */
    void rollOver(String container, int full) throws Exception {
        String what = "change log generation " + (full + 1) + " of container " + container;
        int next = full + 1;
        session.deadline().beforeRequest("creation", what);
        try {
            client.create().withMode(CreateMode.PERSISTENT).forPath(ChangeLogNames.generationPath(path(container),
                    next), new byte[0]);
            LOG.info("the change log of container {} on {} used the 2^31 record names ZooKeeper gives one znode:"
                    + " its records go on in generation {}", container, description, next);
        } catch (KeeperException.NodeExistsException exists) {
            session.deadline().beforeRequest("read", what); // made by another writer: maybe later ones too
            while (client.checkExists().forPath(ChangeLogNames.generationPath(path(container), next + 1)) != null) {
                next++;
            }
        }
        writing.merge(container, next, Math::max);
    }

    /** Counts the commit for compaction. */
    void committed(List<MetadataUpdate> updates) {
        if (updates.size() == 1) {
            compaction.committed(updates.get(0).key().container()); // the common case, on every PUT: no stream
            return;
        }
        updates.stream().map(u -> u.key().container()).distinct().forEach(compaction::committed);
    }

    /** One generation of a container's log: its number, its znode and the znode's stat when read. */
    private record Generation(int number, String path, Stat stat) {
        long base() {
            return ChangeLogNames.base(number);
        }

        /** Whether its count of creations no longer tells its newest record ({@link ChangeLogNames#full}). */
        boolean full() {
            return ChangeLogNames.full(stat);
        }

        /** No record of this generation has a sequence number above this one (it is listed when full). */
        long newestPossible() {
            return base() + ChangeLogNames.recordsCreated(stat);
        }
    }

    /** Generation 0 of the log at {@code log}, or null if the log does not exist. */
    private Generation first(String log) throws Exception {
        Stat stat = client.checkExists().forPath(log);
        return stat == null ? null : new Generation(0, log, stat);
    }

    /** Generation {@code number} of the log at {@code log}, or null if it does not exist. */
    private Generation generation(String log, int number) throws Exception {
        String path = ChangeLogNames.generationPath(log, number);
        Stat stat = client.checkExists().forPath(path);
        return stat == null ? null : new Generation(number, path, stat);
    }

    /** The generation after {@code g}, or null if {@code g} is not full (the usual case: no request) or it has none. */
    private Generation next(String log, Generation g) throws Exception {
        return g.full() ? generation(log, g.number() + 1) : null;
    }

    /** The newest generation of the log, from its first. */
    private Generation newest(String log, Generation first) throws Exception {
        Generation g = first;
        for (Generation n = next(log, g); n != null; n = next(log, g)) {
            g = n;
        }
        return g;
    }

    /**
     * Up to {@code limit} commits from sequence {@code from}. A reader that has caught up (the usual case: a
     * subscriber woken by a commit) reads the few sequence numbers that can exist, without listing the log: ZooKeeper
     * names a sequential child after the count of its parent's creations, so no record's sequence number (the name's
     * plus one) exceeds that count, which the log znode's stat gives ({@link ChangeLogNames#recordsCreated}). A reader
     * further behind lists the log's children, up to its retention. A page that reaches the end of a full
     * generation goes on in the next.
     */
    MetadataChangePage changes(String container, long from, int limit) {
        MetadataPaging.checkLimit(limit);
        session.checkOpen();
        String what = "change log of container " + container;
        String log = path(container);
        try {
            session.beforeRead();
            Generation first = first(log);
            if (first == null) {
                return new MetadataChangePage(List.of(), 0, false, linearizableReads ? 0 : Long.MAX_VALUE);
            }
            int number = ChangeLogNames.generation(from);
            Generation g = number == 0 ? first : generation(log, number);
            if (g == null) { // a cursor beyond every generation: beyond the log's end
                return new MetadataChangePage(List.of(), readMarker(log), false,
                        linearizableReads ? end(log, newest(log, first)) : Long.MAX_VALUE);
            }
            List<MetadataChange> changes = new ArrayList<>(Math.min(limit, 64));
            while (true) {
                // the next generation first: once it exists, every record of its full predecessor was applied (the
                // refusal that made a writer create it came after them), so the listing below has them all
                Generation after = next(log, g);
                boolean more = read(log, g, Math.max(from, g.base() + 1), limit, changes, what);
                if (after == null || changes.size() >= limit) {
                    long end = after == null ? end(log, g) : after.full() ? Long.MAX_VALUE : after.newestPossible();
                    // a server that lags (LOCAL reads) may not have a commit another client's cursor is past: no end
                    return new MetadataChangePage(changes, readMarker(log), more || after != null,
                            linearizableReads ? Math.max(0, end) : Long.MAX_VALUE);
                }
                g = after;
            }
        } catch (KeeperException.NoNodeException e) {
            return new MetadataChangePage(List.of(), 0, false, linearizableReads ? 0 : Long.MAX_VALUE);
        } catch (Exception e) {
            throw session.failure("read", what, e);
        }
    }

    /**
     * Adds generation {@code g}'s commits from sequence {@code from} to {@code changes}, up to {@code limit} in all;
     * returns whether it has more.
     */
    private boolean read(String log, Generation g, long from, int limit, List<MetadataChange> changes, String what)
            throws Exception {
        long newest = g.newestPossible();
        List<Long> candidates = !g.full() && newest - from < (long) limit + RANGE_SLACK
                ? LongStream.rangeClosed(from, newest).boxed().toList()
                : Arrays.stream(sequences(g)).filter(s -> s >= from).boxed().toList();
        int next = 0;
        while (changes.size() < limit && next < candidates.size()) {
            int n = Math.min(Math.min(MAX_PIPELINED_READS, limit - changes.size()), candidates.size() - next);
            List<Long> batch = candidates.subList(next, next + n);
            next += n;
            List<CompletableFuture<CuratorEvent>> reads = new ArrayList<>(batch.size());
            for (long s : batch) {
                reads.add(session.getDataInBackground(ChangeLogNames.child(log, s)));
            }
            for (int j = 0; j < batch.size(); j++) {
                CuratorEvent event = session.await(reads.get(j), "read", what);
                KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
                String child = ChangeLogNames.child(log, batch.get(j));
                if (code == KeeperException.Code.NONODE) {
                    // no record by that number: compacted since (the marker read after covers it), or a number a
                    // deletion used
                    continue;
                }
                if (code != KeeperException.Code.OK) {
                    throw session.failure("read", what, KeeperException.create(code, child));
                }
                changes.add(ChangeLogCodec.decode(batch.get(j), ZooKeeperLayout.data(event.getData()),
                        child + " on " + description));
            }
        }
        return next < candidates.size();
    }

    /** No record of the log had a sequence number above this one, {@code g} being its newest generation. */
    private long end(String log, Generation g) throws Exception {
        if (!g.full()) {
            return g.newestPossible();
        }
        long[] sequences = sequences(g); // the records named past the count
        return Math.max(g.newestPossible(), sequences.length == 0 ? 0 : sequences[sequences.length - 1]);
    }

    /** The sequence numbers of generation {@code g}'s records, ascending, by listing it. */
    private long[] sequences(Generation g) throws Exception {
        return ChangeLogNames.sequences(client.getChildren().forPath(g.path()), g.number());
    }

    /**
     * The newest record's sequence number (the marker when the log holds none). No record's number exceeds the
     * count of the log's creations (see {@link #changes}), so the newest is found among the numbers just below it,
     * probed 16 at a time; the log is listed only when the newest 256 records were deleted (a compacted-away log) or
     * its generation is full.
     */
    long latest(String container) {
        session.checkOpen();
        String log = path(container);
        String what = "change log of container " + container;
        try {
            session.beforeRead();
            Generation first = first(log);
            if (first == null) {
                return 0;
            }
            for (Generation g = newest(log, first); g != null; g = g.number() == 0 ? null
                    : generation(log, g.number() - 1)) {
                long found = newestRecord(log, g, what);
                if (found > 0) {
                    return found;
                }
            }
            return readMarker(log);
        } catch (KeeperException.NoNodeException e) {
            return 0;
        } catch (Exception e) {
            throw session.failure("read", what, e);
        }
    }

    /** The sequence number of generation {@code g}'s newest record, or 0 if it holds none. */
    private long newestRecord(String log, Generation g, String what) throws Exception {
        if (!g.full()) {
            long newest = g.newestPossible();
            long lowest = Math.max(g.base() + 1, newest - RANGE_SLACK + 1);
            // downwards in windows: the newest record is the last one created, unless it was deleted since
            for (long top = newest; top >= lowest; top -= LATEST_WINDOW) {
                List<Long> found = existing(log, Math.max(lowest, top - LATEST_WINDOW + 1), top, what);
                if (!found.isEmpty()) {
                    return found.get(found.size() - 1);
                }
            }
        }
        long[] sequences = sequences(g);
        return sequences.length == 0 ? 0 : sequences[sequences.length - 1];
    }

    /**
     * Runs {@code onChange} once when the log may hold a record at or after {@code from}: at once if one is there,
     * else at the log's next change. The log's persistent watch, shared by this store's subscriptions
     * ({@link ChangeLogWatches}), is set first and the log checked after, so a record created in between is seen by
     * one or the other; the check reads the few numbers the log's creations allow, without listing the log. Once the
     * log has later generations, theirs are set too, each before it is read (a watch set on a generation not made yet
     * fires when it is).
     */
    Subscription watch(String container, long from, Runnable onChange) {
        session.checkOpen();
        String log = path(container);
        String what = "change log of container " + container;
        Runnable once = ChangeLogWatches.once(onChange);
        List<ChangeLogWatches.OneShot> shots = new ArrayList<>(2);
        Subscription subscription = () -> shots.forEach(ChangeLogWatches.OneShot::cancel);
        try {
            try {
                shots.add(watches.subscribe(log, once));
            } catch (KeeperException.UnimplementedException olderServer) {
                return watchByListing(log, from, once); // a server before 3.6: no persistent watches
            }
            Generation first = first(log);
            if (first == null) {
                return subscription; // a log not created yet: the watch fires when it is
            }
            // from the cursor's generation, each watched before read, and the one after each full one
            int number = ChangeLogNames.generation(from);
            Generation g = first;
            if (number > 0) {
                shots.add(watches.subscribe(ChangeLogNames.generationPath(log, number), once));
                g = generation(log, number);
            }
            for (; g != null && g.full(); g = generation(log, g.number() + 1)) {
                shots.add(watches.subscribe(ChangeLogNames.generationPath(log, g.number() + 1), once));
            }
            if (hasRecordFrom(log, first, from, what)) {
                shots.forEach(ChangeLogWatches.OneShot::fire);
            }
            return subscription;
        } catch (Exception e) {
            subscription.cancel();
            throw session.failure("watch", what, e);
        }
    }

    /**
     * {@link #watch} on a server without persistent watches: a child watch, set by listing the log's newest
     * generation, and, once that is full, an exists watch on the next one.
     */
    private Subscription watchByListing(String log, long from, Runnable onChange) throws Exception {
        Generation first = first(log);
        Generation watched = first == null ? null : newest(log, first);
        String path = watched == null ? log : watched.path();
        ZooKeeperWatch watch = new ZooKeeperWatch(session, description, path, onChange, true);
        try {
            List<String> children;
            try {
                children = client.getChildren().usingWatcher(watch).forPath(path);
            } catch (KeeperException.NoNodeException missing) {
                if (client.checkExists().usingWatcher(watch).forPath(path) == null) {
                    return watch; // fires when the log is created
                }
                children = List.of();
                watch.fire(); // created in between: read it
            }
            int number = watched == null ? 0 : watched.number();
            boolean nextMade = watched != null && watched.full() && client.checkExists().usingWatcher(watch)
                    .forPath(ChangeLogNames.generationPath(log, number + 1)) != null; // made since: watch that one
            if (ChangeLogNames.anyFrom(ChangeLogNames.sequences(children, number), from) || nextMade
                    || first != null && hasRecordFrom(log, first, from, "change log " + log)) {
                watch.fire();
            }
            return watch;
        } catch (Exception e) {
            watch.cancel();
            throw e;
        }
    }

    /** Whether a record at or after {@code from} exists, in its generation or a later one. */
    private boolean hasRecordFrom(String log, Generation first, long from, String what) throws Exception {
        int number = ChangeLogNames.generation(from);
        Generation g = number == 0 ? first : generation(log, number);
        for (; g != null; g = next(log, g)) {
            long start = Math.max(from, g.base() + 1);
            if (g.full()) {
                if (ChangeLogNames.anyFrom(sequences(g), start)) {
                    return true;
                }
                continue;
            }
            long newest = g.newestPossible();
            if (newest < start) {
                return false; // no record's number exceeds the count of creations (see changes), nor a later one
            }
            return newest - start >= RANGE_SLACK ? ChangeLogNames.anyFrom(sequences(g), start)
                    : !existing(log, start, newest, what).isEmpty();
        }
        return false;
    }

    /** The records among sequence numbers {@code [first, last]}, in order: one pipelined exists per number. */
    private List<Long> existing(String log, long first, long last, String what) throws Exception {
        List<CompletableFuture<CuratorEvent>> probes = new ArrayList<>((int) (last - first + 1));
        for (long s = first; s <= last; s++) {
            probes.add(session.existsInBackground(ChangeLogNames.child(log, s)));
        }
        List<Long> found = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            CuratorEvent event = session.await(probes.get(i), "read", what);
            KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
            if (code == KeeperException.Code.OK) {
                found.add(first + i);
            } else if (code != KeeperException.Code.NONODE) {
                throw KeeperException.create(code, ChangeLogNames.child(log, first + i));
            }
        }
        return found;
    }

    /**
     * Removes the oldest commits beyond the retention: the marker first, then the children it covers. A log within
     * its retention is left alone after one stat read. Once the newest generation alone holds the retention, the
     * records of the older ones all go, but for each one's record named {@code c-2147483647}, which keeps it full.
     */
    void compact(String container) {
        if (session.isClosed()) {
            return;
        }
        String log = path(container);
        try {
            // the log's size is in its stat: a log within its retention (every log of a container with fewer
            // commits than that) is not listed at all, and a listing costs about 16 bytes per record
            Generation first = first(log);
            if (first == null) {
                return;
            }
            Generation newest = newest(log, first);
            if (newest.stat().getNumChildren() <= retention) {
                return;
            }
            for (int older = 0; older < newest.number(); older++) {
                Generation g = generation(log, older);
                if (g != null) {
                    drop(log, container, sequences(g), Integer.MAX_VALUE);
                }
            }
            long[] sequences = sequences(newest);
            drop(log, container, sequences, sequences.length - retention);
        } catch (KeeperException.NoNodeException gone) {
            // nothing to compact
        } catch (Exception e) {
            throw session.failure("compact", "change log of container " + container, e);
        }
    }

    /** Removes the first {@code count} of ascending {@code sequences} (all if fewer), but a last-named record. */
    private void drop(String log, String container, long[] sequences, int count) throws Exception {
        long[] dropped = Arrays.stream(sequences, 0, Math.max(0, Math.min(count, sequences.length)))
                .filter(s -> !ChangeLogNames.isLastNamed(s)).toArray();
        if (dropped.length == 0) {
            return;
        }
        long through = dropped[dropped.length - 1];
        for (int attempt = 0; ; attempt++) {
            Stat stat = new Stat();
            long marker = ChangeLogNames.parseMarker(client.getData().storingStatIn(stat).forPath(log));
            if (marker >= through) {
                break;
            }
            try {
                client.setData().withVersion(stat.getVersion()).forPath(log, ChangeLogNames.marker(through));
                break;
            } catch (KeeperException.BadVersionException raced) {
                if (attempt >= 5) {
                    throw raced;
                }
            }
        }
        // one multi per batch of records: one request and one transaction-log entry per batch instead of one per
        // record, so a compaction no longer puts a thousand writes in front of the commits (measured: the p99 of a
        // PUT under 16 callers; docs/benchmarks.md, scalability)
        for (int from = 0; from < dropped.length; from += DELETE_BATCH) {
            List<Long> batch = Arrays.stream(dropped, from, Math.min(dropped.length, from + DELETE_BATCH)).boxed()
                    .toList();
            List<CuratorOp> ops = new ArrayList<>(batch.size());
            for (long s : batch) {
                ops.add(client.transactionOp().delete().forPath(ChangeLogNames.child(log, s)));
            }
            try {
                client.transaction().forOperations(ops);
            } catch (KeeperException.NoNodeException raced) {
                deleteEach(log, batch, container); // another client deleted some first: the rest one by one
            }
        }
    }

    /** Deletes the records one by one, in the background; NONODE (another client did it) counts as done. */
    private void deleteEach(String log, List<Long> sequences, String container) throws Exception {
        List<CompletableFuture<CuratorEvent>> deletes = new ArrayList<>(sequences.size());
        for (long s : sequences) {
            CompletableFuture<CuratorEvent> done = new CompletableFuture<>();
            client.delete().inBackground((c, event) -> done.complete(event)).forPath(ChangeLogNames.child(log, s));
            deletes.add(done);
        }
        for (CompletableFuture<CuratorEvent> d : deletes) {
            session.await(d, "compact", "change log of container " + container);
        }
    }

    private long readMarker(String log) throws Exception {
        return ChangeLogNames.parseMarker(client.getData().forPath(log));
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
