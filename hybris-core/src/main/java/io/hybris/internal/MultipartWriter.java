/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisListener;
import io.hybris.InvalidRequestException;
import io.hybris.UploadExpiredException;
import io.hybris.VersionInfo;
import io.hybris.spi.MetadataKey;

import java.io.InputStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Uploads of one value in parts (docs/streaming.md, "Uploads in parts"), the protocol side of
 * {@link io.hybris.PartUploads}. Starting an upload reserves the timestamp of the version it will commit:
 * {@link #RESERVED_GAP} sequence numbers above the current one, so that writes made meanwhile order before it.
 * Each part is stored as chunks of that version (names from {@link PartNames}, each chunk by the container's
 * layout, sealed under the upload's data key) and described by a {@link PartReceipt} the caller keeps. Completing
 * stores a format-2 {@link ChunkManifest} of the parts' chunks under the version's name and commits it by the
 * ordinary write path — one conditional update; the parts' bytes are written once. A completion fails instead of
 * being ordered before a newer version (one committed by an upload started later), and an upload that was idle
 * for half the sweep's grace period fails ({@link UploadExpiredException}) because the sweep may have taken its
 * chunks. Thread-safe; stateless between calls.
 */
public final class MultipartWriter {
    /** How far above the current sequence number an upload reserves its version's. */
    static final long RESERVED_GAP = 1L << 32;
    private final MetadataCalls metadata;
    private final WritePath writes;
    private final ChunkedWriter chunks;
    private final Sealer sealer;
    private final GarbageCollector gc;
    private final HybrisListener listener;
    private final String prefix;
    private final String clientId;
    private final WriteIds writeIds;
    private final Duration deadline;
    private final Duration grace;
    private final long maxValueSize;
    private final Clock clock;
    /** The value cache: read-your-writes must not serve an older own write after a completion found completed. */
    private final CacheLayer cache;
    private final SecureRandom random = new SecureRandom();
    private static final System.Logger LOG = System.getLogger(MultipartWriter.class.getName());

    /** The uploads this client aborted or is completing, or whose completion's outcome it never learnt. */
    private final UploadStates states = new UploadStates();

    MultipartWriter(MetadataCalls metadata, WritePath writes, ChunkedWriter chunks, Sealer sealer,
                    GarbageCollector gc, HybrisListener listener, String prefix, String clientId, WriteIds writeIds,
                    Duration deadline, Duration grace, long maxValueSize, Clock clock, CacheLayer cache) {
        this.metadata = metadata;
        this.cache = cache;
        this.writes = writes;
        this.chunks = chunks;
        this.sealer = sealer;
        this.gc = gc;
        this.listener = listener;
        this.prefix = prefix;
        this.clientId = clientId;
        this.writeIds = writeIds;
        this.deadline = deadline;
        this.grace = grace;
        this.maxValueSize = maxValueSize;
        this.clock = clock;
    }

    /** Starts an upload of a new value of {@code key}: reads the current version, returns the upload's token. */
    public String start(String container, String key) {
        Current cur = metadata.read(new MetadataKey(container, key), Deadline.after(deadline));
        long sn = cur.timestamp(clientId).sn();
        if (sn > Long.MAX_VALUE - 2 * RESERVED_GAP) {
            throw new InvalidRequestException("key '" + key + "' in " + container + " has used up its sequence"
                    + " numbers for uploads in parts (" + sn + "); write it with put instead");
        }
        Sealer.VersionKey dataKey = sealer.newVersionKey();
        if (dataKey != null) {
            dataKey.destroy(); // only its custody record travels; each part unwraps it again
        }
        return new UploadToken(new Timestamp(sn + RESERVED_GAP, clientId, writeIds.next()),
                dataKey == null ? null : dataKey.encryption()).encode();
    }

    /**
     * Stores part {@code part} of the upload: the {@code length} bytes of {@code in} ({@code -1}: until it ends) as
     * chunks of the upload's version. Uploading a part number again replaces it once its receipt replaces the
     * first one's (the chunks of both are named apart). On failure every chunk stored is deleted.
     */
    public PartReceipt upload(String container, String key, String token, int part, InputStream in, long length) {
        return reported(HybrisListener.Operation.UPLOAD_PART, container,
                () -> uploadPart(container, key, token, part, in, length));
    }

    /** Runs {@code call} and reports it to the listener as {@code op}, with its duration and outcome. */
    private <T> T reported(HybrisListener.Operation op, String container, java.util.function.Supplier<T> call) {
        long t0 = System.nanoTime();
        try {
            T result = call.get();
            listener.operation(op, container, HybrisListener.OperationOutcome.OK,
                    Duration.ofNanos(System.nanoTime() - t0));
            return result;
        } catch (RuntimeException e) {
            listener.operation(op, container, HybrisListener.OperationOutcome.of(e),
                    Duration.ofNanos(System.nanoTime() - t0));
            throw e;
        }
    }

    private PartReceipt uploadPart(String container, String key, String token, int part, InputStream in,
                                   long length) {
        UploadToken upload = UploadToken.decode(token);
        if (part < 1 || part > PartNames.MAX_PART) {
            throw new InvalidRequestException("part number " + part + " is out of range: use 1 to "
                    + PartNames.MAX_PART);
        }
        if (in == null) {
            throw new InvalidRequestException("the stream of part " + part + " must not be null");
        }
        if (length < ValueSource.UNKNOWN_LENGTH) {
            throw new InvalidRequestException("length " + length + " of part " + part + " is invalid: pass its"
                    + " length in bytes, or -1 if it is not known");
        }
        String what = "part " + part + " of key '" + key + "' in " + container;
        checkNotAborted(upload, "part " + part + " of the upload in parts of key '" + key + "' in " + container);
        long perPart = PartNames.MAX_CHUNKS_PER_PART * chunks.chunkSize();
        ValueSource source = perPart < maxValueSize
                ? new ValueSource(in, length, perPart, "the most one part holds, " + PartNames.MAX_CHUNKS_PER_PART
                        + " chunks of hybris.chunk.size=" + chunks.chunkSize() + " (" + perPart + " bytes)", what)
                : new ValueSource(in, length, maxValueSize, what);
        ObjectKey version = new ObjectKey(container, key, upload.timestamp());
        int attempt = PartNames.newAttempt(random);
        byte[] dataKey = upload.encryption() == null ? null : sealer.dataKey(upload.encryption(), what);
        ChunkedWriter.StoredChunks stored;
        try {
            int size = ChunkedWriter.balancedChunkSize(length, chunks.chunkSize());
            stored = chunks.storeChunks(version, source, size, j -> PartNames.index(part, attempt, j), dataKey,
                    true);
        } finally {
            if (dataKey != null) {
                java.util.Arrays.fill(dataKey, (byte) 0);
            }
        }
        long stalled = ChunkedWriter.longestGap(stored.storedAt());
        if (!grace.isZero() && stalled >= ChunkedWriter.halfGraceNanos(grace)) {
            deleteChunks(version, stored); // the sweep may have taken those stored before the stall
            throw new io.hybris.HybrisException(what + " stalled for " + Duration.ofNanos(stalled) + " between two"
                    + " chunks, more than half of hybris.gc.grace=" + grace + "; the orphan sweep may have taken its"
                    + " chunks for abandoned: upload the part again (supply its stream faster or raise"
                    + " hybris.gc.grace)");
        }
        refuseIfCompleted(container, key, upload, version, stored);
        long nowMillis = clock.millis();
        long nowNanos = System.nanoTime();
        long first = stored.storedAt().stream().mapToLong(t -> t).min().orElse(nowNanos);
        long last = stored.storedAt().stream().mapToLong(t -> t).max().orElse(nowNanos);
        return new PartReceipt(upload.timestamp().toString(), part, nowMillis - (nowNanos - first) / 1_000_000,
                nowMillis - (nowNanos - last) / 1_000_000, ChunkManifest.ofParts(stored.chunks()));
    }

    /**
     * Fails, deleting the part's chunks, if the upload was completed while the part uploaded: its chunks landed
     * under the key's current version after the completion deleted that version's leftovers, and the sweep keeps
     * every chunk of a current version. A completion after this check lists the chunks and deletes them itself.
     */
    private void refuseIfCompleted(String container, String key, UploadToken upload, ObjectKey version,
                                   ChunkedWriter.StoredChunks stored) {
        boolean completed;
        try {
            Current cur = metadata.read(new MetadataKey(container, key), Deadline.after(deadline));
            completed = cur.meta() != null && cur.meta().timestamp().equals(upload.timestamp());
        } catch (RuntimeException e) {
            deleteChunks(version, stored);
            throw e;
        }
        if (completed) {
            deleteChunks(version, stored);
            throw new InvalidRequestException("the upload in parts of key '" + key + "' in " + container + " was"
                    + " completed; its parts can no longer change");
        }
    }

    private void deleteChunks(ObjectKey version, ChunkedWriter.StoredChunks stored) {
        for (ChunkManifest.Chunk c : stored.chunks()) {
            gc.deleteVersion(version.renderChunk(prefix, c.nameIndex()), c.clouds());
        }
    }

    /**
     * Completes the upload with {@code parts}, in increasing part number, as the value of {@code key}: one commit.
     * Chunks of the upload that no receipt names (parts left out, replaced attempts) are deleted afterwards.
     *
     * @param options the completion's precondition and application metadata (null: none)
     */
    public VersionInfo complete(String container, String key, String token, List<PartReceipt> parts,
                                io.hybris.PutOptions options) {
        return reported(HybrisListener.Operation.PUT, container, () -> completeUpload(container, key, token, parts,
                LateMetadata.of(options), Preconditions.of(options)));
    }

    private VersionInfo completeUpload(String container, String key, String token, List<PartReceipt> parts,
                                       Map<String, String> userMetadata, Preconditions required) {
        UploadToken upload = UploadToken.decode(token);
        String what = "the upload in parts of key '" + key + "' in " + container;
        String version = upload.timestamp().toString();
        if (!states.beginCompletion(version)) {
            throw abortedUpload(what);
        }
        try {
            return completeBegun(upload, what, container, key, parts, userMetadata, required);
        } finally {
            states.endCompletion(version);
        }
    }

    private VersionInfo completeBegun(UploadToken upload, String what, String container, String key,
                                      List<PartReceipt> parts, Map<String, String> userMetadata,
                                      Preconditions required) {
        if (parts == null || parts.isEmpty()) {
            throw new InvalidRequestException(what + " names no part; complete it with at least one");
        }
        List<ChunkManifest.Chunk> all = new ArrayList<>();
        int previous = 0;
        for (PartReceipt p : parts) {
            if (!p.version().equals(upload.timestamp().toString())) {
                throw new InvalidRequestException("part " + p.part() + " was uploaded for another upload (version "
                        + p.version() + ", this one is " + upload.timestamp() + ")");
            }
            if (p.part() <= previous) {
                throw new InvalidRequestException(what + " lists part " + p.part() + " after part " + previous
                        + "; list each part once, in increasing order");
            }
            previous = p.part();
            all.addAll(p.chunks().chunks());
        }
        checkNotIdle(what, parts);
        ChunkManifest manifest = ChunkManifest.ofParts(all);
        if (manifest.valueLength() > maxValueSize) {
            throw new io.hybris.ValueTooLargeException(what + " holds " + manifest.valueLength() + " bytes, above"
                    + " hybris.value.max-size=" + maxValueSize, maxValueSize);
        }
        MetadataKey mk = new MetadataKey(container, key);
        Deadline d = Deadline.after(deadline);
        Current cur = metadata.read(mk, d);
        if (cur.meta() != null && cur.meta().timestamp().equals(upload.timestamp())) {
            // completed already (a retry after a lost answer, maybe by another client): this call completes the
            // write, so read-your-writes must not serve an older write of this client's any more
            cache.forgetOwnWrite(container, key);
            return cur.meta().toVersionInfo();
        }
        Preconditions condition = required == null ? Preconditions.STAY_NEWEST : required;
        Preconditions.check(mk, condition, cur);
        if (!upload.timestamp().isAfter(cur.timestamp(clientId))) {
            throw Preconditions.STAY_NEWEST.failed(mk, cur.meta(), false);
        }
        ObjectKey version = new ObjectKey(container, key, upload.timestamp());
        Set<String> keep = new HashSet<>();
        for (int i = 0; i < manifest.chunks().size(); i++) {
            keep.add(version.renderChunk(prefix, manifest.nameIndex(i)));
        }
        checkStillStored(what, version, keep);
        // an upload started before a KEK rotation holds its data key under the old KEK, which the rotation's rewrap
        // cannot reach (it visits committed entries): the version is committed under the current KEK, or, if this
        // client cannot unwrap the old one, not at all (KeyUnavailableException, nothing committed)
        Metadata.Encryption rewrapped = sealer.rewrap(upload.encryption(), what);
        Metadata.Encryption custody = rewrapped != null ? rewrapped : upload.encryption();
        ChunkedWriter.Stored stored = chunks.storeManifest(version, manifest, custody, List.of(), true);
        states.updateSent(upload.timestamp().toString()); // from here the version may commit after a failure
        Metadata committed = writes.write(new WritePath.NewVersion(mk, cur, upload.timestamp(), null,
                new WritePath.ChunkedValue(stored), 0, condition, userMetadata), d);
        gc.deleteChunksExcept(version.render(prefix), keep);
        return committed.toVersionInfo();
    }

    /**
     * Fails if the upload was idle (no chunk stored) for half the sweep's grace period at some point: the sweep
     * judges an uncommitted version by its newest piece and may have deleted every chunk stored before the gap.
     */
    private void checkNotIdle(String what, List<PartReceipt> parts) {
        if (grace.isZero()) {
            return;
        }
        List<PartReceipt> byTime = new ArrayList<>(parts);
        byTime.sort(java.util.Comparator.comparingLong(PartReceipt::firstDurable));
        long longest = 0;
        long newest = Long.MIN_VALUE;
        for (PartReceipt p : byTime) {
            if (newest != Long.MIN_VALUE) {
                longest = Math.max(longest, p.firstDurable() - newest);
            }
            newest = Math.max(newest, p.lastDurable());
        }
        longest = Math.max(longest, clock.millis() - newest);
        if (longest >= ChunkedWriter.halfGraceNanos(grace) / 1_000_000) {
            throw new UploadExpiredException(what + " stored no chunk for " + Duration.ofMillis(longest)
                    + ", more than half of hybris.gc.grace=" + grace + "; the orphan sweep may have deleted its"
                    + " parts, so it was not committed: upload the value again (complete an upload within that"
                    + " time of its last part, or raise hybris.gc.grace)");
        }
    }

    /**
     * Fails if a chunk the receipts name is on no cloud (clouds that do not answer left out): the sweep took the
     * upload for abandoned. {@link #checkNotIdle} compares wall-clock times of the clients that stamped the receipts
     * with this client's clock, which may lag theirs or have stepped back; the sweep ages pieces on the clouds'
     * clocks. Checked before the manifest is stored, so nothing is committed.
     */
    private void checkStillStored(String what, ObjectKey version, Set<String> chunkNames) {
        Set<String> gone = gc.unlisted(version.render(prefix), chunkNames);
        if (!gone.isEmpty()) {
            throw new UploadExpiredException(what + " lost " + gone.size() + " of its " + chunkNames.size()
                    + " chunks to the orphan sweep (it stored nothing for hybris.gc.grace=" + grace + " by the"
                    + " clouds' clocks; check the clocks of the clients that uploaded and complete it), so it was not"
                    + " committed: upload the value again");
        }
    }

    /**
     * Abandons the upload: deletes every chunk stored under it (in the background; parts still uploading leave
     * theirs to the sweep). The caller must not complete the same upload concurrently (the S3 gateway serialises
     * the two through its upload record); an upload already completed is refused. If a completion of it on this
     * client is running, or ended without learning whether its update landed (an interrupted caller), the chunks
     * are left to the orphan sweep instead: that update may still commit them after this read of the key.
     *
     * @throws InvalidRequestException if the upload was completed: its chunks are the key's current value
     */
    public void abort(String container, String key, String token) {
        UploadToken upload = UploadToken.decode(token);
        MetadataKey mk = new MetadataKey(container, key);
        Current cur = metadata.read(mk, Deadline.after(deadline));
        if (cur.meta() != null && cur.meta().timestamp().equals(upload.timestamp())) {
            throw new InvalidRequestException("the upload in parts of key '" + key + "' in " + container + " was"
                    + " completed; delete the key to remove its value");
        }
        if (!states.abort(upload.timestamp().toString())) {
            LOG.log(System.Logger.Level.INFO, "abort of the upload in parts of key ''{0}'' in {1}: a completion of it"
                    + " on this client may still commit, so its chunks are left to the orphan sweep", key, container);
            return;
        }
        ObjectKey version = new ObjectKey(container, key, upload.timestamp());
        gc.deleteChunksExcept(version.render(prefix), Set.of());
    }

    /** Refuses to store or commit for an upload this client aborted: its chunks are being deleted. */
    private void checkNotAborted(UploadToken upload, String what) {
        if (states.aborted(upload.timestamp().toString())) {
            throw abortedUpload(what);
        }
    }

    private static InvalidRequestException abortedUpload(String what) {
        return new InvalidRequestException(what + " was aborted, which deletes its parts; nothing was stored or"
                + " committed: start a new upload");
    }
}
