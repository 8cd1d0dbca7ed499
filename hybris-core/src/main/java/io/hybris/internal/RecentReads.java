/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.MetadataKey;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What the latest metadata reads (and this client's own commits) found, one slot per key hash (a newer read or
 * commit of a key, or of another key with the same slot, replaces the entry). Two uses:
 * <ul>
 *   <li>a write with {@code ifMatch} skips its own metadata read when this client has just read that very version,
 *       as a read-modify-write does (GET, then PUT {@code ifMatch} the version read): {@link #withVersion}, entries
 *       of reads only (a commit does not learn the store version it left);</li>
 *   <li>a GET starts reading the version last seen while its metadata read runs ({@link SpeculativeRead}):
 *       {@link #latest}, entries of reads and commits.</li>
 * </ul>
 *
 * <p>Using an entry is safe however old it is: the write's conditional update expects the entry's exact store
 * version, and a store version names one state of the key (stores never reuse one: metadata entries are never
 * removed, only replaced), so the update commits only if the key is still in the state read; otherwise it
 * conflicts and the write re-reads as after any lost race ({@link Commits}). An out-of-date entry costs at most the
 * write's uploads, which are then deleted. Bounded ({@value #SLOTS} entries), lock-free, thread-safe.
 */
final class RecentReads {
    static final int SLOTS = 1024;

    private record Entry(MetadataKey key, Current current) {
    }

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);

    /** Records what a read of {@code key} found. */
    void found(MetadataKey key, Current current) {
        if (current.meta() != null) {
            slots.set(slot(key), new Entry(key, current));
        }
    }

    /**
     * Records the version this client just committed for {@code key} (a live value): a guess for the next GET's
     * speculative read, never used for a write (the store version it left is unknown).
     */
    void committed(MetadataKey key, Metadata meta) {
        if (meta != null && !meta.isTombstone()) {
            slots.set(slot(key), new Entry(key, new Current(meta, null, 0)));
        }
    }

    /** Forgets what reads of {@code key} found: this client is changing it (an entry would name the old state). */
    void changing(MetadataKey key) {
        int slot = slot(key);
        Entry e = slots.get(slot);
        if (e != null && e.key().equals(key)) {
            slots.compareAndSet(slot, e, null);
        }
    }

    /**
     * The latest read of {@code key}, if it found the live version {@code version} (a {@code VersionInfo.version()}
     * string); else null.
     */
    Current withVersion(MetadataKey key, String version) {
        Entry e = slots.get(slot(key));
        if (e == null || !e.key().equals(key)) {
            return null;
        }
        Metadata meta = e.current().meta();
        return e.current().version() != null && !meta.isTombstone() && meta.timestamp().toString().equals(version)
                ? e.current() : null;
    }

    /** The live version the latest read or commit of {@code key} in this client found; null if none or deleted. */
    Metadata latest(MetadataKey key) {
        Entry e = slots.get(slot(key));
        if (e == null || !e.key().equals(key)) {
            return null;
        }
        Metadata meta = e.current().meta();
        return meta.isTombstone() ? null : meta;
    }

    private static int slot(MetadataKey key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
