/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.hybris.spi.CloudStore;
import io.hybris.testkit.ForwardingCloudStore;
import io.hybris.testkit.RecordingCloudStore.Op;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/** Counts, per operation, the calls that failed, and the bytes stored and returned: what a cloud would bill. */
final class TallyingCloudStore extends ForwardingCloudStore {
    private final Map<Op, AtomicLong> failures = new EnumMap<>(Op.class);
    private final AtomicLong bytesIn = new AtomicLong();
    private final AtomicLong bytesOut = new AtomicLong();

    TallyingCloudStore(CloudStore delegate) {
        super(delegate);
        for (Op op : Op.values()) {
            failures.put(op, new AtomicLong());
        }
    }

    long failures(Op op) {
        return failures.get(op).get();
    }

    /** Bytes the cloud returned to GETs. */
    long bytesIn() {
        return bytesIn.get();
    }

    /** Bytes the cloud stored (PUTs that succeeded). */
    long bytesOut() {
        return bytesOut.get();
    }

    private <T> T counted(Op op, java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            failures.get(op).incrementAndGet();
            throw e;
        }
    }

    @Override
    public void put(String objectKey, byte[] value) {
        counted(Op.PUT, () -> {
            super.put(objectKey, value);
            return null;
        });
        bytesOut.addAndGet(value.length);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        Optional<byte[]> got = counted(Op.GET, () -> super.get(objectKey, maxBytes));
        got.ifPresent(v -> bytesIn.addAndGet(v.length));
        return got;
    }

    @Override
    public List<io.hybris.spi.CloudObject> list(String prefix) {
        return counted(Op.LIST, () -> super.list(prefix));
    }

    @Override
    public void delete(String objectKey) {
        counted(Op.DELETE, () -> {
            super.delete(objectKey);
            return null;
        });
    }
}
