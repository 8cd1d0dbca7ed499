/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Records every put, get, list and delete (before forwarding it, so failed calls are recorded too), for tests
 * that assert which clouds a protocol step touched. Not a fault: calls are forwarded unchanged.
 * {@code setActive(false)} pauses recording.
 *
 * <p>Thread-safe: calls from many threads are recorded in the order they arrive.
 *
 * <pre>{@code
 * RecordingCloudStore rec = RecordingCloudStore.of(new InMemoryCloudStore("c1"));
 * hybris.get("photos", "cat.jpg");
 * assertThat(rec.count(RecordingCloudStore.Op.GET, "cat.jpg")).isEqualTo(1);
 * }</pre>
 */
public final class RecordingCloudStore extends FaultInjectingCloudStore {
    /** The recorded operation. */
    public enum Op { PUT, GET, LIST, DELETE }

    /**
     * One recorded call.
     *
     * @param op        the operation
     * @param objectKey the object key, or the prefix for {@link Op#LIST}
     */
    public record Call(Op op, String objectKey) {
        /** Creates a call; neither component may be null. */
        public Call {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(objectKey, "objectKey");
        }
    }

    private final List<Call> calls = new ArrayList<>();

    private RecordingCloudStore(CloudStore delegate) {
        super(delegate);
    }

    /** A recording view of {@code delegate}. */
    public static RecordingCloudStore of(CloudStore delegate) {
        return new RecordingCloudStore(delegate);
    }

    /** The calls recorded so far, oldest first; an immutable snapshot. */
    public List<Call> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /** How many {@code op} calls were recorded. */
    public long count(Op op) {
        Objects.requireNonNull(op, "op must not be null");
        synchronized (calls) {
            return calls.stream().filter(c -> c.op() == op).count();
        }
    }

    /** How many {@code op} calls were recorded whose object key (or list prefix) contains {@code objectKeySubstring}. */
    public long count(Op op, String objectKeySubstring) {
        Objects.requireNonNull(op, "op must not be null");
        Objects.requireNonNull(objectKeySubstring, "objectKeySubstring must not be null");
        synchronized (calls) {
            return calls.stream().filter(c -> c.op() == op && c.objectKey().contains(objectKeySubstring)).count();
        }
    }

    /** Forgets every recorded call. */
    public void reset() {
        synchronized (calls) {
            calls.clear();
        }
    }

    private void record(Op op, String objectKey) {
        if (isActive()) {
            Call call = new Call(op, objectKey);
            synchronized (calls) {
                calls.add(call);
            }
        }
    }

    @Override
    public void put(String objectKey, byte[] value) {
        record(Op.PUT, objectKey);
        super.put(objectKey, value);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        record(Op.GET, objectKey);
        return super.get(objectKey, maxBytes);
    }

    @Override
    public List<CloudObject> list(String prefix) {
        record(Op.LIST, prefix);
        return super.list(prefix);
    }

    @Override
    public void delete(String objectKey) {
        record(Op.DELETE, objectKey);
        super.delete(objectKey);
    }
}
