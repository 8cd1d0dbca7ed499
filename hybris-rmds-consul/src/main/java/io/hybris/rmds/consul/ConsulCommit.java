/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.support.ChangeLogCodec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * One caller's commit (a conditional update, or an atomic update of several keys) on its way into a
 * {@code /v1/txn} transaction, possibly together with other callers' commits ({@link ConsulCommitQueue}): its
 * updates, its change-log record per container (encoded once), the size it adds to a transaction, the time its
 * caller stops waiting, and its outcome — success, {@link VersionConflictException} or a runtime failure — which
 * the committing thread sets once and the caller's thread reads. Thread-safe.
 */
final class ConsulCommit {
    /** JSON around one operation's key and value in a transaction, rounded up. */
    private static final int OPERATION_OVERHEAD = 64;

    /** Where the commit is: waiting, promoted to commit its container's next batch, in a batch, or done. */
    enum State { QUEUED, LEADER, TAKEN, DONE }

    private final List<MetadataUpdate> updates;
    private final Map<String, List<MetadataUpdate>> byContainer;
    private final Map<String, byte[]> records;
    private final long giveUpNanos;
    private final long bytes;
    private volatile Thread caller;
    private volatile State state = State.QUEUED;
    private volatile boolean succeeded;
    private volatile Exception failure;

    /**
     * @param updates     the updates, distinct keys, at least one
     * @param prefixLength the length of the store's key prefix (every Consul key starts with it)
     * @param giveUpNanos the {@link System#nanoTime()} after which the commit is not retried any more
     */
    ConsulCommit(List<MetadataUpdate> updates, int prefixLength, long giveUpNanos) {
        this.updates = List.copyOf(updates);
        Map<String, List<MetadataUpdate>> grouped = new LinkedHashMap<>();
        for (MetadataUpdate u : updates) {
            grouped.computeIfAbsent(u.key().container(), c -> new ArrayList<>()).add(u);
        }
        Map<String, byte[]> encoded = new LinkedHashMap<>();
        long size = 0;
        for (Map.Entry<String, List<MetadataUpdate>> e : grouped.entrySet()) {
            byte[] record = ChangeLogCodec.encode(e.getValue());
            encoded.put(e.getKey(), record);
            size += base64(record.length) + OPERATION_OVERHEAD + prefixLength + e.getKey().length() * 3L;
        }
        for (MetadataUpdate u : updates) {
            size += base64(u.value().length) + OPERATION_OVERHEAD + prefixLength + u.key().container().length()
                    + u.key().key().length() * 9L; // a UTF-8 byte is at most %XX, so 3 bytes; 3 bytes per char
        }
        this.byContainer = Collections.unmodifiableMap(grouped);
        this.records = Collections.unmodifiableMap(encoded);
        this.giveUpNanos = giveUpNanos;
        this.bytes = size;
    }

    private static long base64(int length) {
        return 4L * ((length + 2) / 3);
    }

    /** The updates, in the caller's order. */
    List<MetadataUpdate> updates() {
        return updates;
    }

    /** The updates by container, containers in the order of their first update. */
    Map<String, List<MetadataUpdate>> byContainer() {
        return byContainer;
    }

    /** The change-log record of the commit's updates in {@code container}. */
    byte[] record(String container) {
        return records.get(container);
    }

    /** Whether the commit updates {@code key}. */
    boolean updates(MetadataKey key) {
        for (MetadataUpdate u : updates) {
            if (u.key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** The transaction operations the commit needs besides its containers' heads: its keys and its records. */
    int operations() {
        return updates.size() + records.size();
    }

    /** An upper estimate of the bytes the commit adds to a transaction request. */
    long bytes() {
        return bytes;
    }

    /** When the commit stops being retried, in {@link System#nanoTime()}. */
    long giveUpNanos() {
        return giveUpNanos;
    }

    /** One key, or "n keys (first, ...)", for messages. */
    String what() {
        return updates.size() == 1 ? updates.get(0).key().toString()
                : updates.size() + " keys (" + updates.get(0).key() + ", ...)";
    }

    /** "conditional update" or "atomic update", for messages. */
    String operation() {
        return updates.size() == 1 ? "conditional update" : "atomic update";
    }

    State state() {
        return state;
    }

    /** Makes the current thread the one that waits for the commit's outcome (before the commit is queued). */
    void waitOnCurrentThread() {
        caller = Thread.currentThread();
    }

    /** Moves the commit to {@code next} and wakes its caller (guarded by the queue's lock, except DONE). */
    void moveTo(State next) {
        state = next;
        Thread t = caller;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Whether {@link #succeed} or {@link #fail} was called. */
    boolean hasOutcome() {
        return succeeded || failure != null;
    }

    /** Records success (the transaction carrying the commit was applied). */
    void succeed() {
        succeeded = true;
    }

    /** Records a failure: a {@link VersionConflictException} or a {@link RuntimeException}. */
    void fail(Exception e) {
        if (!succeeded && failure == null) {
            failure = e;
        }
    }

    /** Returns normally if the commit succeeded, else throws its failure. */
    void outcome() throws VersionConflictException {
        Exception e = failure;
        if (e instanceof VersionConflictException v) {
            throw v;
        }
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (!succeeded) {
            throw new IllegalStateException("commit of " + what() + " has no outcome");
        }
    }
}
