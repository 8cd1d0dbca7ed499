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
import org.kiwiproject.consul.option.ImmutablePutOptions;
import org.kiwiproject.consul.option.ImmutableQueryOptions;
import org.kiwiproject.consul.option.QueryOptions;
import org.kiwiproject.consul.option.TransactionOptions;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The raw consul-client baseline of the change feed on Consul, doing a Hybris PUT's metadata work the same way:
 * the writer reads the key ({@code ?consistent}), then commits one {@code /v1/txn} of [cas the key at its
 * ModifyIndex, cas {@code <prefix>/.changes/feed/head} from n to n + 1 at the head's ModifyIndex (cached from the
 * last commit, as the Consul store caches it), cas(0) {@code <prefix>/.changes/feed/log/<20-digit n + 1>} holding
 * the record] (the same sizes as Hybris's entry and record). Each subscriber has its own consul-client (own
 * OkHttp client and connections) and follows the log with {@link ConsulLogFollower}.
 */
final class ConsulRawFeedSide implements FeedSide {
    static final QueryOptions CONSISTENT = ImmutableQueryOptions.builder()
            .consistencyMode(ConsistencyMode.CONSISTENT).build();

    private final String name;
    private final String address;
    private final String prefix;
    private final boolean hybrisReads;
    private final Duration watchWait;
    private final byte[] value;
    private final int recordBytes;
    private final List<ConsulLogFollower> followers = new ArrayList<>();
    private Consul writer;
    private KeyValueClient kv;
    private long headSequence;
    private long headIndex;
    private long next;

    /**
     * @param hybrisReads whether the subscribers also make the reads Hybris's subscription makes per
     *                    notification (see {@link ConsulLogFollower})
     * @param watchWait   the {@code wait} of a blocking query (the Consul store's watch-wait)
     */
    ConsulRawFeedSide(String name, String address, String prefix, boolean hybrisReads, Duration watchWait,
                      int entryBytes, int recordBytes) {
        this.name = name;
        this.address = address;
        this.prefix = prefix;
        this.hybrisReads = hybrisReads;
        this.watchWait = watchWait;
        this.value = new byte[entryBytes];
        this.recordBytes = recordBytes;
    }

    @Override
    public String name() {
        return name;
    }

    static Consul client(String address, Duration watchWait) {
        return Consul.builder().withUrl("http://" + address)
                .withReadTimeoutMillis(watchWait.plusSeconds(30).toMillis()).build();
    }

    String headKey() {
        return prefix + "/.changes/" + HybrisFeedSide.CONTAINER + "/head";
    }

    String markerKey() {
        return prefix + "/.changes/" + HybrisFeedSide.CONTAINER + "/compacted";
    }

    String entryKey(long sequence) {
        return prefix + "/.changes/" + HybrisFeedSide.CONTAINER + "/log/" + String.format("%020d", sequence);
    }

    @Override
    public void open(int subscribers, FeedRecorder recorder) throws Exception {
        writer = client(address, watchWait);
        kv = writer.keyValueClient();
        for (int k = 0; k < HybrisFeedSide.KEYS; k++) {
            kv.putValue(keyOf(k), value, 0, ImmutablePutOptions.builder().cas(0L).build());
        }
        String first = write(); // creates the head, which the subscribers block on
        byte[] stored = kv.getValue(entryKey(1), CONSISTENT).flatMap(Value::getValueAsBytes).orElseThrow();
        if (!Arrays.equals(stored, ZooKeeperRawFeedSide.record(Long.parseLong(first), recordBytes))) {
            throw new IllegalStateException("the log record read back differs from the one written");
        }
        for (int s = 0; s < subscribers; s++) {
            int subscriber = s;
            ConsulLogFollower f = new ConsulLogFollower(client(address, watchWait), this, hybrisReads, watchWait,
                    record -> recorder.delivered(subscriber, ZooKeeperRawFeedSide.idOf(record)),
                    e -> recorder.failed(subscriber, e));
            followers.add(f);
            f.start(name + "-" + s);
        }
    }

    private String keyOf(long n) {
        return prefix + "/" + HybrisFeedSide.CONTAINER + "/" + HybrisFeedSide.key(n);
    }

    @Override
    public String write() {
        long n = next++;
        String key = keyOf(n);
        Value current = kv.getValue(key, CONSISTENT).orElseThrow();
        ConsulResponse<TxResponse> r = kv.performTransaction(TransactionOptions.BLANK,
                cas(key, ascii(value), current.getModifyIndex()),
                cas(headKey(), Long.toString(headSequence + 1), headIndex),
                cas(entryKey(headSequence + 1), ascii(ZooKeeperRawFeedSide.record(n, recordBytes)), 0));
        headSequence++;
        headIndex = r.getResponse().results().get(1).get("KV").getModifyIndex();
        return Long.toString(n);
    }

    /** consul-client sends an operation's value as the base64 of the string's UTF-8 bytes: ASCII bytes only. */
    private static String ascii(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static Operation cas(String key, String value, long index) {
        return Operation.builder(Verb.CHECK_AND_SET).key(key).value(value).index(BigInteger.valueOf(index)).build();
    }

    @Override
    public void close() {
        followers.forEach(ConsulLogFollower::close);
        followers.clear();
        if (writer != null) {
            writer.destroy();
        }
    }
}
