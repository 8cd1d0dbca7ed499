/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisListener;
import io.hybris.HybrisListener.ConflictResolution;
import io.hybris.InvalidRequestException;
import io.hybris.MetadataUnavailableException;
import io.hybris.PutOvertakenException;
import io.hybris.TransactionAbortedException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The conditional updates that linearize writes, with the retry rule of paper §4.1: on a version conflict re-read;
 * our own write identity (unique per call, see {@link Timestamp}) with our hash means our update landed (a store
 * that retried a request after a lost connection); a newer stored timestamp means this write was overwritten (and
 * is complete), except for a deletion, which observes what it deletes: overtaken by a newer value it deletes that
 * value (two deletions ordered before one newer write would both claim the value they read), and overtaken by a
 * newer deletion it is a no-op; and except for a value overtaken by a newer conditional write (which observed the
 * version it replaced, marked {@link Metadata#conditional()}) or deletion, which is not ordered before it either but
 * puts again after it ({@link PutOvertakenException}); an older one means retry against the new version. Then the
 * version actually replaced is collected.
 * A conflict the store saw on a re-sent update ({@link VersionConflictException#mayHaveApplied()}) after a newer
 * write replaced every key cannot tell whether our update landed first: a write that would then fail (a broken
 * precondition, an aborted TPUT) has an unknown outcome instead ({@link io.hybris.MetadataUnavailableException}).
 *
 * <p>Only a lost race, or an update the store refused before sending it ({@link InvalidRequestException}, e.g.
 * larger than its servers accept), is a definite failure, and only then are a write's copies deleted at once. Any
 * other exception (interrupt, deadline, lost connection, close) leaves the outcome unknown: the update may have
 * been sent and may commit, so the copies stay for the orphan sweep, which checks metadata before deleting.
 * Thread-safe.
 */
final class Commits {
    private final MetadataCalls metadata;
    private final GarbageCollector gc;
    private final HybrisListener listener;

    Commits(MetadataCalls metadata, GarbageCollector gc, HybrisListener listener) {
        this.metadata = metadata;
        this.gc = gc;
        this.listener = listener;
    }

    /**
     * Commits {@code meta} over {@code read}, the version this write ordered itself after.
     *
     * @param objectKey the version's object name (its copies, deleted if a newer write won), or null for a tombstone
     * @param required  the write's precondition, or null: with one, a concurrent change that breaks it (or orders
     *                  after this write) fails the write instead of being ordered before it
     * @return the metadata committed: {@code meta} if the write committed or is complete ordered just before a
     *         newer write; for a deletion without a precondition overtaken by a newer value, the newer tombstone that
     *         deleted that value; null if it is a deletion without a precondition that found the key deleted since
     *         it read it: a DELETE of a deleted key, a no-op that wrote nothing
     * @throws io.hybris.PreconditionFailedException if a concurrent write broke the precondition (nothing
     *                                               committed, the copies deleted)
     * @throws PutOvertakenException for a value without a precondition overtaken by a newer conditional write or
     *                               deletion, which it cannot be ordered before (nothing committed, the copies
     *                               deleted)
     */
    Metadata commit(MetadataKey mk, Metadata meta, Current read, Deadline d, String objectKey,
                    Preconditions required) {
        return commit(mk, meta, read, d, objectKey, required, false);
    }

    /**
     * {@link #commit(MetadataKey, Metadata, Current, Deadline, String, Preconditions)}, where {@code shared} says the
     * version's objects are not this write's own (a completion of an upload in parts: its chunks are the upload's,
     * and every completion of it stores its manifest under the version's name). A refusal, or a precondition broken
     * by a write older than the version, then deletes nothing: a completion of the same upload may be on the wire
     * (its update may land after any read of the key), and the completion may be tried again; the upload's abort or
     * the orphan sweep deletes them.
     */
    Metadata commit(MetadataKey mk, Metadata meta, Current read, Deadline d, String objectKey,
                    Preconditions required, boolean shared) {
        Current replaced = read;
        if (observes(required)) {
            meta = meta.asConditional(); // it observes what it replaces: a write it overtakes cannot order before it
        }
        byte[] encoded = MetadataCodec.encode(meta);
        while (true) {
            MetadataVersion expected = replaced.version();
            try {
                metadata.conditionalUpdate(new MetadataUpdate(mk, encoded, expected), d, "conditional update of " + mk);
                metadata.committed(mk, meta);
                gc.collectSuperseded(mk.container(), mk.key(), replaced.meta());
                return meta;
            } catch (InvalidRequestException refused) {
                if (objectKey != null && !shared && !committedElsewhere(mk, meta, d)) {
                    gc.deleteWritten(objectKey, meta); // never sent: nothing of this write references the copies
                }
                throw refused;
            } catch (VersionConflictException conflict) {
                Current now = metadata.read(mk, d);
                if (isOurs(now.meta(), meta)) {
                    // our own update landed (a retried request after a lost connection)
                    listener.casConflict(mk.container(), 1, ConflictResolution.OWN_UPDATE);
                    gc.collectSuperseded(mk.container(), mk.key(), replaced.meta());
                    // what was committed: another completion of the same upload in parts may have committed this
                    // version with its own metadata and placement (ConcurrentCompletionFeedTest)
                    return now.meta();
                }
                boolean newer = now.meta() != null && now.meta().timestamp().isAfter(meta.timestamp());
                if (meta.isTombstone() && required == null && (now.meta() == null || now.meta().isTombstone())
                        && (!newer || !conflict.mayHaveApplied())) {
                    // another deletion won: ordered at this read, this one deletes a deleted key, which is a no-op
                    // (ordered before it instead, both would claim the one value they deleted). Not after a re-sent
                    // update met a newer deletion: ours may have landed first (an older one proves it did not)
                    listener.casConflict(mk.container(), 1, ConflictResolution.OVERWRITTEN);
                    return null;
                }
                if (meta.isTombstone() && required == null && newer) {
                    if (conflict.mayHaveApplied()) {
                        // ours may have deleted the value it read before the newer write: neither claiming that
                        // (another deletion may have) nor deleting the newer value too (two effects) is sure
                        listener.casConflict(mk.container(), 1, ConflictResolution.UNKNOWN);
                        throw unknown("deletion of " + mk, conflict);
                    }
                    if (now.live()) {
                        // ordered just before the newer value, this deletion and any other overtaken by it would
                        // all claim the one value they read; it deletes the newer value instead, with a tombstone
                        // ordered after it (the same write id: still unique, its sequence number is higher)
                        listener.casConflict(mk.container(), 1, ConflictResolution.RETRY);
                        meta = Metadata.tombstone(now.meta().timestamp().next(meta.timestamp().clientId(),
                                meta.timestamp().writeId()));
                        encoded = MetadataCodec.encode(meta);
                        replaced = now;
                        continue;
                    }
                }
                if (required != null && newer && conflict.mayHaveApplied()) {
                    // our update may have landed and been read before the newer write: failing it would be a lie
                    listener.casConflict(mk.container(), 1, ConflictResolution.UNKNOWN);
                    throw unknown("conditional update of " + mk, conflict);
                }
                if (required != null && !stillHolds(required, now.meta(), meta)) {
                    listener.casConflict(mk.container(), 1, ConflictResolution.PRECONDITION_FAILED);
                    if (objectKey != null && !sameVersion(now.meta(), meta) && (!shared || newer)) {
                        // shared (an upload in parts): another completion of it, on the wire, may still commit
                        // over the write that broke this one's precondition, unless that write is newer
                        gc.deleteWritten(objectKey, meta);
                    }
                    throw required.failed(mk, now.meta(), true);
                }
                if (required == null && newer && !meta.isTombstone()
                        && (now.meta().isTombstone() || now.meta().conditional())) {
                    // a conditional write observed the version it replaced (and a deletion may have: its tombstone
                    // does not say): ordered between them, this write would break its precondition. Unless ours
                    // may have landed first (a re-sent update), it commits nothing and puts again after it
                    if (conflict.mayHaveApplied()) {
                        listener.casConflict(mk.container(), 1, ConflictResolution.UNKNOWN);
                        throw unknown("update of " + mk, conflict);
                    }
                    listener.casConflict(mk.container(), 1, ConflictResolution.RETRY);
                    gc.deleteWritten(objectKey, meta);
                    throw overtaken(mk, now.meta());
                }
                if (newer) {
                    // overwritten by a newer write: linearized just before it (whether or not our update landed
                    // first, as after a re-sent update); our copy is garbage
                    listener.casConflict(mk.container(), 1, ConflictResolution.OVERWRITTEN);
                    if (objectKey != null) {
                        gc.deleteWritten(objectKey, meta);
                    }
                    return meta;
                }
                listener.casConflict(mk.container(), 1, ConflictResolution.RETRY);
                replaced = now;
            }
        }
    }

    /**
     * Commits every key of a transaction atomically over the versions {@code read} found.
     *
     * @throws TransactionAbortedException if a newer write committed to one of the keys first (nothing written)
     */
    void commitAll(String container, Map<String, Metadata> versions, Map<String, Current> read,
                   Map<String, String> objectKeys, Map<String, Preconditions> required, Deadline d) {
        Map<String, Current> replaced = new LinkedHashMap<>(read);
        Map<String, Metadata> written = new LinkedHashMap<>(versions);
        written.replaceAll((k, m) -> observes(required.get(k)) ? m.asConditional() : m); // see commit
        while (true) {
            List<MetadataUpdate> updates = new ArrayList<>();
            written.forEach((k, m) -> updates.add(new MetadataUpdate(new MetadataKey(container, k),
                    MetadataCodec.encode(m), replaced.get(k).version())));
            try {
                metadata.conditionalUpdateAll(updates, d, "transactional update of " + written.size() + " keys in "
                        + container);
                replaced.forEach((k, c) -> gc.collectSuperseded(container, k, c.meta()));
                return;
            } catch (InvalidRequestException refused) {
                written.forEach((k, m) -> gc.deleteWritten(objectKeys.get(k), m)); // never sent
                throw refused;
            } catch (VersionConflictException conflict) {
                // the update is atomic: our identity on any one key proves the whole transaction landed (a store
                // that retried a request after a lost answer), even if a newer write has since replaced another key
                boolean landed = false;
                List<String> newer = new ArrayList<>();
                RuntimeException broken = null;
                for (Map.Entry<String, Metadata> e : written.entrySet()) {
                    MetadataKey mk = new MetadataKey(container, e.getKey());
                    Current now = metadata.read(mk, d);
                    Timestamp stored = now.meta() == null ? null : now.meta().timestamp();
                    landed |= isOurs(now.meta(), e.getValue());
                    Preconditions condition = required.get(e.getKey());
                    if (broken == null && condition != null && !isOurs(now.meta(), e.getValue())
                            && !stillHolds(condition, now.meta(), e.getValue())) {
                        broken = condition.failed(mk, now.meta(), true);
                    }
                    if (stored != null && !stored.isAfter(e.getValue().timestamp())
                            && !stored.equals(e.getValue().timestamp())) {
                        replaced.put(e.getKey(), now);
                    } else if (stored != null && stored.isAfter(e.getValue().timestamp())) {
                        newer.add(e.getKey());
                    }
                }
                if (landed) {
                    listener.casConflict(container, written.size(), ConflictResolution.OWN_UPDATE);
                    replaced.forEach((k, c) -> gc.collectSuperseded(container, k, c.meta()));
                    return;
                }
                if (newer.size() == written.size() && conflict.mayHaveApplied()) {
                    // every key holds a newer write: our transaction may have landed before them (a re-sent update)
                    listener.casConflict(container, written.size(), ConflictResolution.UNKNOWN);
                    throw unknown("transactional update of " + written.size() + " keys in " + container, conflict);
                }
                if (broken != null) {
                    listener.casConflict(container, written.size(), ConflictResolution.PRECONDITION_FAILED);
                    written.forEach((k, m) -> gc.deleteWritten(objectKeys.get(k), m));
                    throw broken;
                }
                if (!newer.isEmpty()) {
                    listener.casConflict(container, written.size(), ConflictResolution.ABORTED);
                    written.forEach((k, m) -> gc.deleteWritten(objectKeys.get(k), m));
                    throw new TransactionAbortedException("tput of " + written.size() + " keys in " + container
                            + " aborted: a concurrent write with a newer timestamp committed first to " + newer
                            + "; nothing was written");
                }
                listener.casConflict(container, written.size(), ConflictResolution.RETRY);
            }
            // any other exception: the outcome is unknown, the copies stay for the sweep (see commit)
        }
    }

    /** A PUT without a precondition overtaken by {@code now}, a conditional write's or a deletion's version. */
    private static PutOvertakenException overtaken(MetadataKey mk, Metadata now) {
        return new PutOvertakenException("put of " + mk + " was overtaken, before its update committed, by "
                + (now.isTombstone() ? "the deletion " : "the conditional write ") + now.timestamp()
                + ", which it cannot be ordered before; nothing was committed and its uploads are deleted; put again",
                mk.key(), now.isTombstone() ? null : now.toVersionInfo());
    }

    /** The unknown outcome of an update whose re-sent request conflicted after newer writes replaced its keys. */
    private static MetadataUnavailableException unknown(String what, VersionConflictException conflict) {
        return new MetadataUnavailableException(what + ": the metadata store re-sent the update after losing the"
                + " answer to an earlier send, and a newer write has replaced the key since, so whether the earlier"
                + " send landed first cannot be told; the write's outcome is unknown (" + conflict.getMessage() + ")",
                conflict);
    }

    /**
     * Whether a conditional write may still commit over {@code now}: its precondition holds for it and the write's
     * timestamp still orders after it.
     */
    private static boolean stillHolds(Preconditions required, Metadata now, Metadata written) {
        return required.holds(now) && (now == null || written.timestamp().isAfter(now.timestamp()));
    }

    /**
     * Whether {@code stored} is another commit of the version {@code written} names (two completions of one upload in
     * parts): its objects are the committed value's, not garbage of this write.
     */
    /**
     * After the store refused {@code written} without sending it: whether the key holds that very version, committed
     * by another attempt of the same write (an upload in parts completed again: same version, same names), or its
     * metadata cannot be read. Its objects are then not this write's to delete (left to the sweep if unreferenced).
     */
    private boolean committedElsewhere(MetadataKey mk, Metadata written, Deadline d) {
        try {
            return sameVersion(metadata.read(mk, d).meta(), written);
        } catch (RuntimeException e) {
            return true;
        }
    }

    private static boolean sameVersion(Metadata stored, Metadata written) {
        return stored != null && stored.timestamp().equals(written.timestamp());
    }

    /** Whether a write with precondition {@code required} (null: none) observes the version it replaces. */
    private static boolean observes(Preconditions required) {
        return required != null && (required.ifMatch() != null || required.ifAbsent());
    }

    /** Whether {@code stored} is the update {@code written} by this very call: same write identity, same bytes. */
    static boolean isOurs(Metadata stored, Metadata written) {
        return stored != null && stored.timestamp().equals(written.timestamp())
                && Arrays.equals(stored.sha256(), written.sha256());
    }
}
