/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import org.kiwiproject.consul.Consul;
import org.kiwiproject.consul.KeyValueClient;
import org.kiwiproject.consul.model.ConsulResponse;
import org.kiwiproject.consul.model.kv.Operation;
import org.kiwiproject.consul.model.kv.TxResponse;
import org.kiwiproject.consul.model.kv.Value;
import org.kiwiproject.consul.model.kv.Verb;
import org.kiwiproject.consul.option.ConsistencyMode;
import org.kiwiproject.consul.option.ImmutableQueryOptions;
import org.kiwiproject.consul.option.ImmutableTransactionOptions;
import org.kiwiproject.consul.option.TransactionOptions;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.hybris.benchmarks.ConsulRawFeedSide.CONSISTENT;

/**
 * A raw consul-client subscriber of a Consul change log, on its own thread and with its own client: it blocks on
 * the log's head ({@code ?index=&wait=&consistent}, as the Consul store's watch does), and when the head moved past
 * the last entry it delivered reads the new entries with a read transaction of up to 64 {@code get}s
 * ({@code ?consistent}) and hands the records to its callback in order. That is the least a log follower does.
 *
 * <p>With {@code hybrisReads} it makes the reads Hybris's subscription makes per notification instead
 * (ConsulChangeLog.changes then .watch): the compaction marker, the head, the read transaction, the marker again,
 * delivery; then a consistent read of the head, and only if it has not moved a blocking query from its
 * ModifyIndex until the head's ModifyIndex changes — so the difference between the two baselines is the cost of
 * those reads, and the rest of Hybris's time is its own work.
 */
final class ConsulLogFollower implements Runnable {
    private static final int MAX_GETS = 64;
    private static final TransactionOptions CONSISTENT_TXN = ImmutableTransactionOptions.builder()
            .consistencyMode(ConsistencyMode.CONSISTENT).build();

    private final Consul consul;
    private final KeyValueClient kv;
    private final ConsulRawFeedSide log;
    private final boolean hybrisReads;
    private final String wait;
    private final Consumer<byte[]> deliver;
    private final Consumer<Throwable> failed;
    private volatile boolean closed;
    private long last; // sequence of the newest entry delivered
    private long index; // the blocking query's index
    private Thread thread;

    ConsulLogFollower(Consul consul, ConsulRawFeedSide log, boolean hybrisReads, Duration wait,
                      Consumer<byte[]> deliver, Consumer<Throwable> failed) {
        this.consul = consul;
        this.kv = consul.keyValueClient();
        this.log = log;
        this.hybrisReads = hybrisReads;
        this.wait = wait.toSeconds() + "s";
        this.deliver = deliver;
        this.failed = failed;
    }

    /** Starts following from the log's current end. */
    void start(String name) {
        ConsulResponse<Value> head = kv.getConsulResponseWithValue(log.headKey(), CONSISTENT).orElseThrow();
        last = parse(head.getResponse());
        index = head.getIndex().longValue();
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        try {
            while (!closed) {
                if (hybrisReads) {
                    awaitHeadPast(last);
                    kv.getValue(log.markerKey(), CONSISTENT);
                    long head = kv.getValue(log.headKey(), CONSISTENT).map(ConsulLogFollower::parse).orElse(0L);
                    List<byte[]> records = read(head);
                    kv.getValue(log.markerKey(), CONSISTENT);
                    records.forEach(deliver);
                } else {
                    ConsulResponse<Value> r = kv.getConsulResponseWithValue(log.headKey(), blocking(index))
                            .orElseThrow();
                    long next = r.getIndex().longValue();
                    index = next < index ? 0 : Math.max(next, 1); // Consul's advice: backwards means a reset
                    long head = parse(r.getResponse());
                    if (head > last) {
                        read(head).forEach(deliver);
                    }
                }
            }
        } catch (RuntimeException e) {
            if (!closed) {
                failed.accept(e);
            }
        }
    }

    /** As ConsulChangeLog.watch: returns once the head is past {@code delivered}, at once if it already is. */
    private void awaitHeadPast(long delivered) {
        Value head = kv.getValue(log.headKey(), CONSISTENT).orElseThrow();
        if (parse(head) > delivered) {
            return;
        }
        long seen = head.getModifyIndex();
        long at = seen;
        while (!closed) {
            ConsulResponse<Value> r = kv.getConsulResponseWithValue(log.headKey(), blocking(at)).orElseThrow();
            if (r.getResponse().getModifyIndex() != seen) {
                return;
            }
            long next = r.getIndex().longValue();
            at = next < at ? 0 : Math.max(next, 1);
        }
    }

    private ImmutableQueryOptions blocking(long at) {
        return ImmutableQueryOptions.builder().consistencyMode(ConsistencyMode.CONSISTENT)
                .index(BigInteger.valueOf(at)).wait(wait).build();
    }

    /** The records after {@code last} up to {@code head}, in read transactions of up to 64 gets; moves last. */
    private List<byte[]> read(long head) {
        List<byte[]> records = new ArrayList<>();
        for (long s = last + 1; s <= head; s += MAX_GETS) {
            List<Operation> gets = new ArrayList<>();
            for (long q = s; q <= Math.min(head, s + MAX_GETS - 1); q++) {
                gets.add(Operation.builder(Verb.GET).key(log.entryKey(q)).build());
            }
            TxResponse r = kv.performTransaction(CONSISTENT_TXN, gets.toArray(new Operation[0])).getResponse();
            for (Map<String, Value> result : r.results()) {
                records.add(result.get("KV").getValueAsBytes().orElseThrow());
            }
        }
        last = Math.max(last, head);
        return records;
    }

    private static long parse(Value v) {
        return Long.parseLong(v.getValueAsString(StandardCharsets.US_ASCII).orElse("0").trim());
    }

    void close() {
        closed = true;
        consul.destroy();
    }
}
