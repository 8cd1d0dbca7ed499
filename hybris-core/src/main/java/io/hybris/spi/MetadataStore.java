/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The trusted, strongly consistent metadata store (the paper's RMDS, Algorithm 2): a map from
 * {@link MetadataKey} to an opaque byte value with a per-key version, supporting conditional update.
 * Hybris encodes and interprets the values; a store only keeps bytes and versions.
 *
 * <p>Contract (checked by {@code MetadataStoreContract} in the testkit):
 * <ul>
 *   <li>{@link #read} is linearizable (or as configured by the store's read mode, documented there);</li>
 *   <li>{@link #conditionalUpdate} replaces the value only if the key's current version equals the expected one
 *       ({@link MetadataVersion#ABSENT}: the key must not exist) and otherwise throws
 *       {@link VersionConflictException} without any effect;</li>
 *   <li>{@link #conditionalUpdateAll} applies several such updates atomically: all or none;</li>
 *   <li>{@link #list} returns entries ordered by {@link KeyEncoding#encode(String)} of their key;</li>
 *   <li>a watch set by {@link #readAndWatch} fires at most once, after the key changes;</li>
 *   <li>a store that {@link #hasChangeLog() keeps a change log} appends each successful conditional update and
 *       each successful atomic update to its container's log atomically with the update itself (one
 *       {@link MetadataChange} per commit, in commit order) and never appends a failed one; it removes the oldest
 *       commits only when it compacts the log to its retention, and says so with
 *       {@link MetadataChangePage#compactedThrough()}.</li>
 * </ul>
 * Failures to reach the store throw {@link io.hybris.MetadataUnavailableException}; other failures
 * {@link io.hybris.MetadataStoreException}. Implementations are thread-safe. Keys are stored in a form that
 * survives the store's naming rules: use {@link KeyEncoding}.
 */
public interface MetadataStore extends AutoCloseable {

    /** Reads a key's current value and version; empty if the key has never been written. */
    Optional<VersionedValue> read(MetadataKey key);

    /**
     * Reads a key like {@link #read} and atomically subscribes to its next change: {@code onChange} runs at
     * most once, on a store thread, after the key's value changes (or the key is created). It must return
     * quickly. Cancel the subscription with {@link WatchedRead#subscription()} once it is no longer needed.
     */
    WatchedRead readAndWatch(MetadataKey key, Runnable onChange);

    /**
     * Writes {@code update.value()} if the key's version is {@code update.expectedVersion()}.
     *
     * @throws VersionConflictException if the version differs (nothing was written)
     * @throws io.hybris.InvalidRequestException if the store refuses the update before sending it, e.g. larger than
     *                                           its servers accept (nothing was written; Hybris then deletes the
     *                                           write's copies at once, as after a lost race)
     */
    void conditionalUpdate(MetadataUpdate update) throws VersionConflictException;

    /**
     * Applies all updates atomically, each conditional on its expected version; if any condition fails, none
     * is applied. The updates name distinct keys (a repeated key is an {@link IllegalArgumentException}); an
     * empty list is a no-op.
     *
     * @throws VersionConflictException if any version differs (nothing was written)
     * @throws io.hybris.InvalidRequestException if the store refuses the updates before sending them: more than
     *                                           {@link #maxAtomicUpdates()}, or larger than its servers accept
     *                                           (nothing was written)
     */
    void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException;

    /**
     * Lists up to {@code limit} entries of {@code container} whose key starts with {@code prefix} and whose
     * encoded key sorts after the encoded {@code startAfter} (null: from the beginning), in encoded-key order.
     * A null or empty prefix matches every key. {@code hasMore} may be true although the next page turns out
     * empty (keys are never deleted by Hybris, but a store may be shared).
     *
     * @throws IllegalArgumentException if {@code limit} is not positive
     */
    MetadataPage list(String container, String prefix, String startAfter, int limit);

    /**
     * The most updates {@link #conditionalUpdateAll} accepts in one call (e.g. Consul: 64 operations per
     * transaction). Hybris rejects a larger transactional put before uploading anything. Unlimited by default.
     */
    default int maxAtomicUpdates() {
        return Integer.MAX_VALUE;
    }

    /**
     * How long any single call of this store can take at most — it answers, fails or times out on its own within
     * this bound (its connect, read and retry timeouts added up) — or empty (the default) if a call may block
     * longer. When a call's remaining deadline exceeds the bound, Hybris runs the call on the caller's thread
     * instead of handing it to another thread it could abandon, which saves two thread hand-offs per call. The
     * bound assumes the metadata service itself is correct (it is trusted in Hybris's model); a store whose
     * calls are not bounded must return empty.
     */
    default Optional<Duration> callTimeBound() {
        return Optional.empty();
    }

    /**
     * The containers that hold at least one key (including keys whose metadata is a tombstone), sorted. Used by
     * whole-store maintenance such as KEK rotation.
     */
    List<String> containers();

    /**
     * Whether this store keeps a change log per container ({@link #changes}, {@link #latestChange},
     * {@link #watchChanges}); false by default. Hybris's change feed ({@code Hybris.changes}, {@code subscribe})
     * needs one.
     */
    default boolean hasChangeLog() {
        return false;
    }

    /**
     * Up to {@code limit} commits of {@code container}'s change log whose sequence number is at least
     * {@code fromSequence}, oldest first.
     *
     * @throws UnsupportedOperationException if the store keeps no change log
     * @throws IllegalArgumentException      if {@code limit} is not positive
     */
    default MetadataChangePage changes(String container, long fromSequence, int limit) {
        throw new UnsupportedOperationException(describe() + " keeps no change log");
    }

    /**
     * The sequence number of the newest commit in {@code container}'s change log, or 0 if it has none.
     *
     * @throws UnsupportedOperationException if the store keeps no change log
     */
    default long latestChange(String container) {
        throw new UnsupportedOperationException(describe() + " keeps no change log");
    }

    /**
     * Calls {@code onChange} once, on a store thread, when {@code container}'s log may hold a commit with a
     * sequence number of at least {@code fromSequence} — at once if it already holds one, and conservatively
     * whenever the store cannot tell (a lost session, a watch that keeps failing). It must return quickly.
     *
     * @throws UnsupportedOperationException if the store keeps no change log
     */
    default Subscription watchChanges(String container, long fromSequence, Runnable onChange) {
        throw new UnsupportedOperationException(describe() + " keeps no change log");
    }

    /** A human-readable description (type and address) for log and error messages. */
    String describe();

    /** Releases the connection. */
    @Override
    void close();
}
