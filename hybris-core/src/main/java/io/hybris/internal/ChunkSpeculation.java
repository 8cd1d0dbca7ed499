/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.crypto.ValueCipher;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * The first chunks of a chunked version, requested while its manifest is still being read
 * ({@code hybris.get.speculate}, docs/streaming.md "Protocol"): a GET by a client that does not have the manifest
 * otherwise waits for the manifest's round trip before any chunk's. A chunk's name, length and (usually) clouds
 * follow from the version's metadata alone: chunk {@code i} of a value stored in one call is named by its position,
 * holds {@code chunkSize} value bytes (the last one the rest), and was stored by the same write on the clouds its
 * manifest went to unless a cloud failed during the upload. So the common-case read of each chunk the GET reads
 * first starts with the manifest's, on the manifest's clouds, without a hash: each answer waits for its
 * {@link LateHash} before it is judged.
 *
 * <p>Once the manifest is read, {@link #adopt} hands the reader each read whose guess held (the chunk is
 * replicated, its stored size is the guessed one and it is on exactly the guessed clouds), its hash now known, so
 * the read goes on as if it had started then; every other read is abandoned, its requests reported cancelled, with
 * no penalty for their clouds. What the GET returns never depends on the guesses, only when its requests start.
 * Used by one caller; {@link #cancel} is idempotent and abandons every read not handed over.
 */
final class ChunkSpeculation {
    /** One chunk's read started early: its guessed stored size and the hash its answers wait for. */
    private record Guess(long storedSize, LateHash hash, PendingRead read) {
    }

    private final List<String> clouds;
    private final Map<Integer, Guess> guesses = new HashMap<>();

    private ChunkSpeculation(List<String> clouds) {
        this.clouds = clouds;
    }

    /**
     * Starts reading chunks {@code first} to {@code first + count - 1} of the chunked version {@code meta} of
     * {@code version} (count cut at the last chunk), on the clouds its manifest is on; null if none can start:
     * the chunk size is not in the metadata (a value uploaded in parts), a listed cloud is not configured here or
     * answers without a network (nothing to overlap), or the container's policy would erasure-code such a chunk.
     *
     * @param encrypted whether the version is encrypted (its chunks' stored size then includes the cipher's framing)
     */
    static ChunkSpeculation start(CloudCalls calls, Layouts layouts, ObjectKey version, String prefix, Metadata meta,
                                  boolean encrypted, int first, int count, Deadline d) {
        Metadata.Chunked chunked = meta.chunked();
        long chunks = chunked == null ? -1 : chunked.chunks();
        if (chunks <= first || count <= 0) {
            return null;
        }
        for (String cloud : meta.clouds()) {
            if (!calls.configured(cloud) || !calls.unbounded(cloud)) {
                return null;
            }
        }
        ChunkSpeculation s = new ChunkSpeculation(meta.clouds());
        int last = (int) Math.min(chunks - 1, (long) first + count - 1);
        try {
            for (int i = first; i <= last; i++) {
                long plain = Math.min(chunked.chunkSize(), chunked.valueLength() - (long) i * chunked.chunkSize());
                long stored = encrypted ? ValueCipher.ciphertextLength(plain, ValueCipher.DEFAULT_CHUNK_SIZE) : plain;
                if (layouts.forWrite(version.container(), stored) != layouts.replicated()) {
                    break;
                }
                String name = version.renderChunk(prefix, i);
                int index = i;
                LateHash hash = new LateHash(d);
                PendingRead read = calls.startRead(name, meta.clouds(), 1, stored,
                        cloud -> CloudCalls.Expected.late(stored, name, index, hash),
                        "no copy matching the manifest's hash", d);
                s.guesses.put(i, new Guess(stored, hash, read));
            }
        } catch (RuntimeException e) { // a guess never fails a GET (e.g. the client is closing: the GET then fails)
            s.cancel();
            return null;
        }
        if (s.guesses.isEmpty()) {
            return null;
        }
        return s;
    }

    /**
     * The reads whose guesses {@code manifest} confirms, by chunk index, their hashes resolved: the caller now owns
     * them (finishes or abandons each). Every other read is abandoned. After this, {@link #cancel} does nothing.
     */
    Map<Integer, PendingRead> adopt(ChunkManifest manifest) {
        Map<Integer, PendingRead> adopted = new HashMap<>();
        for (Map.Entry<Integer, Guess> e : guesses.entrySet()) {
            int index = e.getKey();
            Guess g = e.getValue();
            ChunkManifest.Chunk chunk = index < manifest.chunks().size() ? manifest.chunks().get(index) : null;
            if (chunk != null && !manifest.isSparse() && chunk.erasure() == null
                    && chunk.storedSize() == g.storedSize()
                    && new HashSet<>(chunk.clouds()).equals(new HashSet<>(clouds))) {
                g.read().restartClock(System.nanoTime()); // its timer counts from now, not from the manifest's start
                g.hash().resolve(chunk.sha256());
                adopted.put(index, g.read());
            } else {
                g.read().abandon(); // first: its requests then end as abandoned, not as a wrong guess's answer
                g.hash().miss();
            }
        }
        guesses.clear();
        return adopted;
    }

    /** Abandons every read not handed over by {@link #adopt}. Idempotent. */
    void cancel() {
        for (Guess g : guesses.values()) {
            g.read().abandon();
            g.hash().miss();
        }
        guesses.clear();
    }
}
