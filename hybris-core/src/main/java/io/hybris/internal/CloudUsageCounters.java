/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.cost.CloudUsage;
import io.hybris.cost.RequestClass;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts every request a client makes of each cloud, by {@link RequestClass}, and the payload bytes each way
 * (docs/cost.md): {@link #wrap} puts a counting decorator in front of a cloud, so nothing that calls a cloud —
 * reads, writes, garbage collection, the sweep, probes — goes uncounted. The cost report and the metrics read the
 * same counters. Thread-safe.
 */
public final class CloudUsageCounters {
    /** One cloud's counters. */
    private static final class Counters {
        final LongAdder putList = new LongAdder();
        final LongAdder getHead = new LongAdder();
        final LongAdder delete = new LongAdder();
        final LongAdder uploaded = new LongAdder();
        final LongAdder downloaded = new LongAdder();

        CloudUsage read() {
            return new CloudUsage(putList.sum(), getHead.sum(), delete.sum(), uploaded.sum(), downloaded.sum());
        }
    }

    private final Map<String, Counters> clouds = new LinkedHashMap<>();

    /** {@code cloud} behind a decorator that counts its calls here. Call for each cloud before first use. */
    synchronized CloudStore wrap(CloudStore cloud) {
        Counters c = clouds.computeIfAbsent(cloud.id(), id -> new Counters());
        return new Counting(cloud, c);
    }

    /** Each cloud's counts so far, in the order the clouds were wrapped. */
    public synchronized Map<String, CloudUsage> snapshot() {
        Map<String, CloudUsage> out = new LinkedHashMap<>();
        clouds.forEach((id, c) -> out.put(id, c.read()));
        return out;
    }

    /** The counting decorator. Adds no latency, so it passes its delegate's call-time bound through. */
    private static final class Counting implements CloudStore {
        private final CloudStore delegate;
        private final Counters c;

        Counting(CloudStore delegate, Counters c) {
            this.delegate = delegate;
            this.c = c;
        }

        @Override
        public String id() {
            return delegate.id();
        }

        @Override
        public void put(String objectKey, byte[] value) {
            c.putList.increment();
            delegate.put(objectKey, value);
            c.uploaded.add(value.length);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            c.getHead.increment();
            Optional<byte[]> value = delegate.get(objectKey, maxBytes);
            value.ifPresent(v -> c.downloaded.add(v.length));
            return value;
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes, io.hybris.spi.ByteConsumer onBytes) {
            c.getHead.increment();
            return delegate.get(objectKey, maxBytes, (bytes, offset, length) -> {
                c.downloaded.add(length);
                onBytes.accept(bytes, offset, length);
            });
        }

        @Override
        public List<CloudObject> list(String prefix) {
            List<CloudObject> objects;
            try {
                objects = delegate.list(prefix);
            } catch (RuntimeException e) {
                c.putList.increment();
                throw e;
            }
            c.putList.add(RequestClass.listRequests(objects.size()));
            return objects;
        }

        @Override
        public void delete(String objectKey) {
            c.delete.increment();
            delegate.delete(objectKey);
        }

        @Override
        public Optional<Duration> callTimeBound() {
            return delegate.callTimeBound();
        }

        @Override
        public void close() {
            delegate.close();
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
