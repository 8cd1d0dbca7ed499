/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.Subscription;
import io.hybris.spi.support.ChangeLogCodec;
import io.hybris.spi.support.ChangeLogCompaction;
import io.hybris.spi.support.MetadataPaging;
import org.kiwiproject.consul.model.kv.TxResponse;
import org.kiwiproject.consul.model.kv.Value;
import org.kiwiproject.consul.util.Jackson;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The change logs of a {@link ConsulMetadataStore}. Container {@code c}'s log lives under
 * {@code <key-prefix>/.changes/<c>/}: {@code head} holds the sequence number of the newest commit, each commit is
 * {@code log/<sequence, 20 digits>} (its keys and values, {@link ChangeLogCodec}), and {@code compacted} the
 * highest sequence number compaction removed. A commit's transaction checks-and-sets {@code head} from {@code n} to
 * {@code n + 1} and creates {@code log/<n + 1>} beside its keys' check-and-sets, so a commit and its record land
 * together, numbered in commit order without gaps; a transaction carrying a batch of {@code m} commits
 * ({@link ConsulCommitQueue}) moves {@code head} by {@code m} and creates their records in batch order. Commits
 * to one container from different clients contend on {@code head}: the batch that loses only there is re-sent with
 * the new head ({@link ConsulBatchWrite}); the head each store saw last is cached, so a lone writer sends one
 * request per batch. Thread-safe.
 */
final class ConsulChangeLog implements AutoCloseable {
    private static final int MAX_GETS = ConsulMetadataStore.MAX_TRANSACTION_OPERATIONS;

    /** A log's head as last seen: the newest sequence number and the head entry's ModifyIndex (0: none). */
    record Head(long sequence, long modifyIndex) {
    }

    private final ConsulTransport transport;
    private final ConsulSettings settings;
    private final String base;
    private final String description;
    private final Set<ConsulWatch> watches;
    private final Map<String, Head> heads = new ConcurrentHashMap<>();
    private final ChangeLogCompaction compaction;
    private final int retention;

    ConsulChangeLog(ConsulTransport transport, ConsulSettings settings, String description, Set<ConsulWatch> watches) {
        this.transport = transport;
        this.settings = settings;
        this.base = settings.keyPrefix() + "/.changes/";
        this.description = description;
        this.watches = watches;
        this.retention = settings.changesRetention();
        this.compaction = new ChangeLogCompaction(description, retention, this::compact);
    }

    private String headKey(String container) {
        return base + container + "/head";
    }

    private String markerKey(String container) {
        return base + container + "/compacted";
    }

    private String entryKey(String container, long sequence) {
        return base + container + "/log/" + String.format("%020d", sequence);
    }

    /**
     * The head to build the next commit on: the cached one, or read if none is cached (retrying transient failures
     * until {@code giveUpNanos}, the read cut off at {@code deadlineNanos}).
     */
    Head head(String container, String operation, String what, long giveUpNanos, long deadlineNanos) {
        Head cached = heads.get(container);
        return cached != null ? cached : readHead(container, operation, what, giveUpNanos, deadlineNanos);
    }

    /**
     * Reads the head afresh (after losing a commit race on it) for {@code operation} of {@code what}, retrying
     * transient failures until {@code giveUpNanos}, the read cut off at {@code deadlineNanos} (the commit's call
     * deadline).
     */
    Head readHead(String container, String operation, String what, long giveUpNanos, long deadlineNanos) {
        Optional<Value> v = transport.call(operation, what,
                () -> transport.getValue(headKey(container), deadlineNanos), giveUpNanos);
        Head h = v.map(x -> new Head(parse(x), x.getModifyIndex())).orElse(new Head(0, 0));
        heads.put(container, h);
        return h;
    }

    /**
     * Appends to {@code ops} the head check-and-set from {@code head} to {@code head + records.size()} and the
     * records, numbered from {@code head + 1} in the order given (one per commit, each made by
     * {@link ChangeLogCodec#encode}).
     */
    void appendOperations(ArrayNode ops, String container, Head head, List<byte[]> records) {
        long last = head.sequence() + records.size();
        ObjectNode h = ops.addObject().putObject("KV");
        h.put("Verb", "cas").put("Key", headKey(container))
                .put("Value", Long.toString(last).getBytes(StandardCharsets.US_ASCII)).put("Index", head.modifyIndex());
        long sequence = head.sequence();
        for (byte[] record : records) {
            ObjectNode e = ops.addObject().putObject("KV");
            e.put("Verb", "cas").put("Key", entryKey(container, ++sequence)).put("Value", record).put("Index", 0);
        }
    }

    /**
     * Records the head a committed transaction of {@code records} commits left ({@code headResult}: the head
     * operation's result).
     */
    void committed(String container, Head head, int records, Value headResult) {
        if (headResult != null) {
            heads.put(container, new Head(head.sequence() + records, headResult.getModifyIndex()));
        } else {
            heads.remove(container);
        }
        for (int i = 0; i < records; i++) {
            compaction.committed(container);
        }
    }

    /** Forgets the cached head (a commit lost on it). */
    void forget(String container) {
        heads.remove(container);
    }

    MetadataChangePage changes(String container, long from, int limit) {
        MetadataPaging.checkLimit(limit);
        transport.checkOpen();
        String what = "change log of container " + container;
        long marker = readMarker(container);
        long start = Math.max(from, 1);
        if (start <= marker) {
            return new MetadataChangePage(List.of(), marker, true);
        }
        long head = transport.call("read", what, () -> transport.getValue(headKey(container)))
                .map(ConsulChangeLog::parse).orElse(0L);
        long last = head - start < limit ? head : start + limit - 1; // no overflow for a cursor far past the head
        // The page is the records from start up to the first one missing, if any: compacted since the marker was
        // read (the marker read after the records covers it, so the cursor has expired), or, in read mode default
        // or stale, committed but not yet applied on the server that answered, while another server, further ahead,
        // answered the head read or an earlier record's (each request may reach another server: a client agent
        // changing servers, a load balancer in front of them, a leader change). Records after a missing one are not
        // returned: the feed moves its cursor past a page's last commit, so it would skip the missing one for good.
        List<MetadataChange> changes = new ArrayList<>();
        for (long s = start; s <= last; s += MAX_GETS) {
            List<String> keys = new ArrayList<>();
            for (long q = s; q <= Math.min(last, s + MAX_GETS - 1); q++) {
                keys.add(entryKey(container, q));
            }
            List<Value> values = getAll(keys, what);
            for (Value v : values) {
                String key = v.getKey();
                long sequence = Long.parseLong(key.substring(key.lastIndexOf('/') + 1));
                changes.add(ChangeLogCodec.decode(sequence, v.getValueAsBytes().orElse(new byte[0]),
                        key + " on " + description));
            }
            if (values.size() < keys.size()) {
                break;
            }
        }
        boolean hasMore = start + changes.size() <= last || last < head;
        // only a consistent read's head bounds every commit: another server may lag behind a cursor (default, stale)
        return new MetadataChangePage(changes, readMarker(container), hasMore,
                settings.readMode() == ConsulMetadataStore.ReadMode.CONSISTENT ? head : Long.MAX_VALUE);
    }

    /**
     * The entries of the given keys (records in ascending order) in one read transaction; if one is missing
     * (compacted meanwhile, or not yet on the server that answered), those before it, read one by one.
     */
    private List<Value> getAll(List<String> keys, String what) {
        ConsulTransport.Reply reply = transport.transaction(ConsulKv.getOperations(keys), true, "read", what);
        TxResponse response = transport.parseTransaction(reply, "read", what);
        List<Value> values = new ArrayList<>(keys.size());
        if (reply.code() == 200) {
            for (Map<String, Value> result : response.results()) {
                Value v = result.get("KV");
                if (v != null) {
                    values.add(v);
                }
            }
            return values;
        }
        for (String key : keys) { // 409: an entry is missing; the page ends before it (see changes)
            Optional<Value> v = transport.call("read", what, () -> transport.getValue(key));
            if (v.isEmpty()) {
                break;
            }
            values.add(v.get());
        }
        return values;
    }

    long latest(String container) {
        transport.checkOpen();
        return transport.call("read", "change log of container " + container,
                () -> transport.getValue(headKey(container)))
                .map(ConsulChangeLog::parse).orElse(0L);
    }

    Subscription watch(String container, long from, Runnable onChange) {
        transport.checkOpen();
        Optional<Value> head = transport.call("watch", "change log of container " + container,
                () -> transport.getValue(headKey(container)));
        if (head.map(ConsulChangeLog::parse).orElse(0L) >= from) {
            onChange.run();
            return () -> { };
        }
        ConsulWatch watch = new ConsulWatch(transport, watches, settings, description,
                new MetadataKey(container, ".changes/head"), headKey(container),
                head.map(Value::getModifyIndex).orElse(0L), onChange);
        watch.poll();
        return watch;
    }

    /**
     * Removes the commits older than the newest {@code retention}: the marker first, then the entries, oldest first.
     * A compaction that moved the marker but did not delete every entry it covers (its client killed or closed
     * meanwhile, a delete that failed, or its marker update re-sent after a lost answer) leaves the entry at the
     * marker: then the deletions start at the oldest entry left, found by listing the log, not after the marker.
     */
    void compact(String container) {
        if (transport.isClosed()) {
            return;
        }
        String what = "change log of container " + container;
        long head = latest(container);
        long through = head - retention;
        Optional<Value> markerEntry = transport.call("compact", what,
                () -> transport.getValue(markerKey(container)));
        long marker = markerEntry.map(ConsulChangeLog::parse).orElse(0L);
        if (through <= marker) {
            return;
        }
        ArrayNode setMarker = Jackson.MAPPER.createArrayNode();
        setMarker.addObject().putObject("KV").put("Verb", "cas").put("Key", markerKey(container))
                .put("Value", Long.toString(through).getBytes(StandardCharsets.US_ASCII))
                .put("Index", markerEntry.map(Value::getModifyIndex).orElse(0L));
        if (transport.transaction(setMarker, false, "compact", what).code() != 200) {
            return; // another client compacts this log right now
        }
        long from = marker + 1;
        if (marker > 0 && transport.call("compact", what, () -> transport.getValue(entryKey(container, marker)))
                .isPresent()) {
            from = oldestEntry(container, what, from);
        }
        for (long s = from; s <= through; s += MAX_GETS) {
            ArrayNode deletes = Jackson.MAPPER.createArrayNode();
            for (long q = s; q <= Math.min(through, s + MAX_GETS - 1); q++) {
                deletes.addObject().putObject("KV").put("Verb", "delete").put("Key", entryKey(container, q));
            }
            transport.transaction(deletes, false, "compact", what);
        }
    }

    /** The sequence number of the oldest entry of the log, or {@code otherwise} if it has none. */
    private long oldestEntry(String container, String what, long otherwise) {
        String log = base + container + "/log/";
        long oldest = otherwise;
        for (String key : transport.call("compact", what, () -> transport.getKeys(log, null))) {
            try {
                oldest = Math.min(oldest, Long.parseLong(key.substring(log.length())));
            } catch (NumberFormatException | IndexOutOfBoundsException foreign) {
                // not an entry of this log
            }
        }
        return oldest;
    }

    private long readMarker(String container) {
        return transport.call("read", "change log of container " + container,
                () -> transport.getValue(markerKey(container)))
                .map(ConsulChangeLog::parse).orElse(0L);
    }

    private static long parse(Value v) {
        try {
            return Long.parseLong(v.getValueAsString(StandardCharsets.US_ASCII).orElse("0").trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        compaction.close();
    }
}
