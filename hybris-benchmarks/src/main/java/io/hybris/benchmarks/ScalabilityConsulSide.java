/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.spi.support.ChangeLogCompaction;
import io.hybris.spi.support.StandardOptions;
import org.kiwiproject.consul.Consul;
import org.kiwiproject.consul.ConsulException;
import org.kiwiproject.consul.KeyValueClient;
import org.kiwiproject.consul.model.ConsulResponse;
import org.kiwiproject.consul.model.kv.Operation;
import org.kiwiproject.consul.model.kv.TxResponse;
import org.kiwiproject.consul.model.kv.Value;
import org.kiwiproject.consul.model.kv.Verb;
import org.kiwiproject.consul.option.ConsistencyMode;
import org.kiwiproject.consul.option.ImmutablePutOptions;
import org.kiwiproject.consul.option.ImmutableQueryOptions;
import org.kiwiproject.consul.option.QueryOptions;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The raw side of {@link ScalabilityBenchmark} on Consul: consul-client (its defaults, as a user would build it) on
 * the same agent, issuing the metadata requests Hybris's Consul store issues. A GET is a KV get with
 * {@code ?consistent} (the store's default read mode). A PUT is that read, then one {@code /v1/txn} with the key's
 * check-and-set, the change-log head's check-and-set from {@code n} to {@code n + 1} and the record {@code n + 1}
 * (created with index 0), as a Hybris commit of one key; the head seen last is cached, and a transaction that loses
 * only on the head re-reads it and is sent again after the pause Hybris's store takes (full jitter below a cap
 * doubling from 0.5 ms to 4 ms). The log keeps the Hybris store's default retention, and every retention / 10
 * commits the records beyond it are deleted, 64 per transaction, by the caller whose commit is due. What this side
 * does not do is Hybris's group commit ({@code ConsulCommitQueue}): each caller sends its own transaction, as a
 * straightforward raw client would.
 *
 * <p>With {@code log == false} a PUT is the read and a plain {@code PUT ?cas=<ModifyIndex>}: what the raw side did
 * until 2026-11-25, cheaper than a Hybris commit by the head and the record (a reference for what the change log
 * costs, not a fair baseline). Thread-safe.
 */
final class ScalabilityConsulSide implements ScalabilitySides.Side {
    /** Records the log keeps: the Hybris store's default retention. */
    private static final int RETENTION = StandardOptions.CHANGES_RETENTION.defaultValue().orElseThrow();
    /** Commits between two compactions: the Hybris store's average. */
    private static final int COMPACT_INTERVAL = ChangeLogCompaction.interval(RETENTION);
    /** Operations per Consul transaction. */
    private static final int MAX_OPERATIONS = 64;
    private static final long FIRST_CAP_MICROS = 500;
    private static final long MAX_CAP_MICROS = 4_000;

    /** The head as last seen: the newest sequence number and the head entry's ModifyIndex (0: none). */
    private record Head(long sequence, long modifyIndex) {
    }

    private final Consul consul;
    private final KeyValueClient kv;
    private final QueryOptions consistent = ImmutableQueryOptions.builder()
            .consistencyMode(ConsistencyMode.CONSISTENT).build();
    private final boolean log;
    private final String base;
    private final String headKey;
    private final String logPrefix;
    private final byte[] value = new byte[ScalabilitySides.VALUE_BYTES];
    /** The same value as text: consul-client encodes a transaction operation's value itself. */
    private final String textValue = "v".repeat(ScalabilitySides.VALUE_BYTES);
    private final String textRecord = "r".repeat(64);
    private final AtomicReference<Head> head = new AtomicReference<>();
    private final AtomicLong commits = new AtomicLong();
    /** Below this sequence number every record is deleted. */
    private final AtomicLong compactedThrough = new AtomicLong();
    private final Object compacting = new Object();

    ScalabilityConsulSide(String address, String namespace, boolean log) {
        this.consul = Consul.builder().withUrl("http://" + address).build();
        this.kv = consul.keyValueClient();
        this.log = log;
        this.base = "scale-raw/" + namespace + "/";
        this.headKey = "scale-raw-log/" + namespace + "/head";
        this.logPrefix = "scale-raw-log/" + namespace + "/log/";
    }

    @Override
    public String name() {
        return "raw";
    }

    private Value read(String k) {
        return kv.getValue(k, consistent).orElseThrow(() -> new IllegalStateException("no value for " + k));
    }

    @Override
    public void get(int caller, int i) {
        read(base + ScalabilitySides.key(caller, i));
    }

    @Override
    public void put(int caller, int i) throws InterruptedException {
        String k = base + ScalabilitySides.key(caller, i);
        long index = read(k).getModifyIndex();
        if (!log) {
            if (!kv.putValue(k, value, 0, ImmutablePutOptions.builder().cas(index).build())) {
                throw new IllegalStateException("cas of " + k + " failed");
            }
            return;
        }
        for (int lost = 0; ; lost++) {
            Head h = head.get();
            if (h == null) {
                h = readHead();
            }
            long next = h.sequence() + 1;
            try {
                ConsulResponse<TxResponse> r = kv.performTransaction(
                        cas(k, textValue, index),
                        cas(headKey, Long.toString(next), h.modifyIndex()),
                        cas(recordKey(next), textRecord, 0));
                Map<String, Value> headResult = r.getResponse().results().get(1);
                head.compareAndSet(h, new Head(next, headResult.get("KV").getModifyIndex()));
                break;
            } catch (ConsulException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                if (read(k).getModifyIndex() != index) {
                    throw new IllegalStateException("cas of " + k + " failed: its index moved", e);
                }
                head.compareAndSet(h, null); // lost on the head: another caller committed first
                TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(
                        Math.min(MAX_CAP_MICROS, FIRST_CAP_MICROS << Math.min(lost, 16))));
            }
        }
        if (commits.incrementAndGet() % COMPACT_INTERVAL == 0) {
            compact();
        }
    }

    private Head readHead() {
        Optional<Value> v = kv.getValue(headKey, consistent);
        Head h = v.map(x -> new Head(Long.parseLong(x.getValueAsString(StandardCharsets.US_ASCII).orElse("0").trim()),
                x.getModifyIndex())).orElse(new Head(0, 0));
        head.set(h);
        return h;
    }

    private String recordKey(long sequence) {
        return logPrefix + String.format("%020d", sequence);
    }

    private static Operation cas(String key, String value, long index) {
        return Operation.builder(Verb.CHECK_AND_SET).key(key).value(value)
                .index(BigInteger.valueOf(index)).build();
    }

    /** Deletes the records beyond the retention, oldest first, {@value #MAX_OPERATIONS} per transaction. */
    private void compact() {
        synchronized (compacting) {
            Head h = head.get();
            long through = (h != null ? h.sequence() : readHead().sequence()) - RETENTION;
            for (long s = compactedThrough.get() + 1; s <= through; s += MAX_OPERATIONS) {
                List<Operation> deletes = new ArrayList<>(MAX_OPERATIONS);
                for (long q = s; q <= Math.min(through, s + MAX_OPERATIONS - 1); q++) {
                    deletes.add(Operation.builder(Verb.DELETE).key(recordKey(q)).build());
                }
                kv.performTransaction(deletes.toArray(Operation[]::new));
            }
            compactedThrough.set(Math.max(compactedThrough.get(), through));
        }
    }

    @Override
    public void create(int caller, int i) {
        kv.putValue(base + ScalabilitySides.key(caller, i), value, 0, ImmutablePutOptions.builder().build());
    }

    @Override
    public void close() {
        consul.destroy();
    }
}
