/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ReadSettings;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.VersionName;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Shared setup of the streaming tests: three in-memory clouds (f=1), each behind a test-chosen decorator and a
 * {@link RecordingCloudStore}, the in-memory metadata store, and 64 KiB chunks with timers long enough that a busy
 * machine never fires them (tests about slow clouds shorten them).
 */
final class StreamingFixture implements AutoCloseable {
    static final int CHUNK = 64 << 10;
    static final String C = "media";
    static final String PREFIX = "hybris/";

    final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    final List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    final List<CloudStore> decorated = new ArrayList<>();
    final List<RecordingCloudStore> recorded = new ArrayList<>();
    private final List<Hybris> opened = new ArrayList<>();

    /** Clouds as they are, recorded. */
    StreamingFixture() {
        this(c -> c);
    }

    /** Each cloud behind {@code decorate}, then recorded. */
    StreamingFixture(Function<CloudStore, CloudStore> decorate) {
        for (InMemoryCloudStore c : raw) {
            CloudStore d = decorate.apply(c);
            decorated.add(d);
            recorded.add(RecordingCloudStore.of(d));
        }
    }

    HybrisConfig.Builder builder() {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId("w1").metadataStore(metadata)
                .deadline(Duration.ofSeconds(20)).timerInitial(Duration.ofSeconds(10))
                .reads(ReadSettings.builder().hedge(false).build()).timerMin(Duration.ofSeconds(10))
                .probeInterval(Duration.ZERO).probeOnOpen(false)
                .chunkSize(CHUNK).chunkThreshold(CHUNK);
        recorded.forEach(b::cloud);
        return b;
    }

    Hybris open() {
        return open(b -> b);
    }

    Hybris open(UnaryOperator<HybrisConfig.Builder> adjust) {
        Hybris h = Hybris.open(adjust.apply(builder()).build());
        opened.add(h);
        return h;
    }

    static byte[] value(int size, long seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    /** Every object name each cloud holds under the prefix, by cloud id. */
    Map<String, List<String>> objects() {
        Map<String, List<String>> all = new TreeMap<>();
        for (InMemoryCloudStore c : raw) {
            all.put(c.id(), c.list(PREFIX).stream().map(CloudObject::key).sorted().toList());
        }
        return all;
    }

    /** The names of objects of {@code key} (versions and chunks) on any cloud. */
    List<String> objectsOf(String key) {
        String keyPrefix = VersionName.keyPrefix(PREFIX, C, key);
        return objects().values().stream().flatMap(List::stream).filter(n -> n.startsWith(keyPrefix)).toList();
    }

    /** The chunk index of an object name, if it is a chunk. */
    static Optional<Integer> chunkIndex(String name) {
        return VersionName.parseChunk(PREFIX, name).map(c -> Math.toIntExact(c.index()));
    }

    /** The GETs of chunks since the last reset: chunk index to the ids of the clouds asked, in call order per cloud. */
    Map<Integer, List<String>> chunkGets() {
        Map<Integer, List<String>> gets = new TreeMap<>();
        for (RecordingCloudStore r : recorded) {
            for (RecordingCloudStore.Call call : r.calls()) {
                if (call.op() == RecordingCloudStore.Op.GET) {
                    chunkIndex(call.objectKey()).ifPresent(i -> gets.computeIfAbsent(i, x -> new ArrayList<>())
                            .add(r.id()));
                }
            }
        }
        return gets;
    }

    /** GETs of anything that is not a chunk (manifests, whole values) since the last reset. */
    long versionGets() {
        return recorded.stream().flatMap(r -> r.calls().stream())
                .filter(c -> c.op() == RecordingCloudStore.Op.GET && chunkIndex(c.objectKey()).isEmpty()).count();
    }

    long gets() {
        return recorded.stream().mapToLong(r -> r.count(RecordingCloudStore.Op.GET)).sum();
    }

    void resetCalls() {
        recorded.forEach(RecordingCloudStore::reset);
    }

    /** The chunk indexes each cloud holds, by cloud id. */
    Map<String, List<Integer>> chunksByCloud() {
        return objects().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> e.getValue().stream().flatMap(n -> chunkIndex(n).stream()).sorted().toList(),
                (a, b) -> a, TreeMap::new));
    }

    @Override
    public void close() {
        opened.forEach(Hybris::close);
    }

    /** A stream of {@code length} seeded bytes that throws after {@code failAfter} bytes (never if negative). */
    static InputStream failingAfter(byte[] bytes, long failAfter) {
        return new BulkInputStream() {
            private int pos;

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (failAfter >= 0 && pos >= failAfter) {
                    throw new IOException("disk on fire at byte " + pos);
                }
                if (pos == bytes.length) {
                    return -1;
                }
                int n = Math.min(len, bytes.length - pos);
                if (failAfter >= 0) {
                    n = (int) Math.min(n, failAfter - pos);
                }
                System.arraycopy(bytes, pos, b, off, n);
                pos += n;
                return n;
            }
        };
    }
}
