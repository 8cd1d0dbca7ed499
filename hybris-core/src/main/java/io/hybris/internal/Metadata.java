/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.VersionInfo;
import io.hybris.crypto.ValueCipher;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.List;
import java.util.Objects;

/**
 * The metadata of one key (paper §3.2): the timestamp of its current version, the clouds holding the value,
 * the SHA-256 of the stored bytes and their size. A tombstone (after DELETE) has no clouds and no hash.
 *
 * @param timestamp the version's timestamp
 * @param clouds    ids of the clouds that acknowledged the value, in acknowledgement order; empty for a tombstone
 * @param sha256    the 32-byte SHA-256 of the stored bytes; empty for a tombstone
 * @param size      the number of stored bytes
 * @param encryption how the stored bytes are encrypted, or null if they are the plaintext value
 * @param cacheCounter versions written since the value was last cached under its plain key, for bounded staleness
 *                   by versions (paper §3.10, "η"); 0 when not in use
 * @param erasure    how the stored bytes are erasure-coded across {@code clouds} ({@code clouds.get(i)} holds chunk
 *                   {@code i}), or null if every cloud holds a full replica
 * @param chunked    for a chunked (large) value, its length: the stored bytes are then its chunk manifest
 *                   ({@link ChunkManifest}), and the value is in the chunks the manifest lists; null for a value
 *                   stored whole
 * @param userMetadata the version's application metadata (name to value, sorted by name); empty if none
 * @param conditional whether a write with a precondition ({@code ifMatch}, {@code ifAbsent}) committed this live
 *                   version: it observed the version it replaced, so a write it overtook cannot be ordered just
 *                   before it ({@link Commits}); false for a tombstone
 */
public record Metadata(Timestamp timestamp, List<String> clouds, byte[] sha256, long size, Encryption encryption,
                       int cacheCounter, Erasure erasure, Chunked chunked, Map<String, String> userMetadata,
                       boolean conditional) {
    public static final int HASH_BYTES = 32;

    /**
     * The mark of a chunked value: the version's object is its chunk manifest, the value is in its chunks.
     *
     * @param valueLength the value's length in bytes (plaintext)
     * @param chunkSize   value bytes per chunk (all but the last), or 0 when not recorded; the manifest has it too
     */
    public record Chunked(long valueLength, int chunkSize) {
        public Chunked {
            if (valueLength < 0 || chunkSize < 0) {
                throw new IllegalArgumentException("valueLength and chunkSize must be >= 0: " + valueLength + ", "
                        + chunkSize);
            }
        }

        /** A mark without the chunk size. */
        public Chunked(long valueLength) {
            this(valueLength, 0);
        }

        /** How many chunks the value has, or -1 if the chunk size is not recorded. */
        public long chunks() {
            return chunkSize == 0 ? -1 : (valueLength + chunkSize - 1) / chunkSize;
        }
    }

    /**
     * The custody record of an encrypted version's data key: the id of the key-encryption key it is wrapped with
     * ({@code ""} = stored unwrapped, the paper's mode) and the wrapped key.
     *
     * @param keyId   the KEK id, {@code ""} for none
     * @param wrapped the (wrapped) data key
     */
    public record Encryption(String keyId, byte[] wrapped) {
        public Encryption {
            Objects.requireNonNull(keyId, "keyId");
            Objects.requireNonNull(wrapped, "wrapped");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Encryption e && keyId.equals(e.keyId) && Arrays.equals(wrapped, e.wrapped);
        }

        @Override
        public int hashCode() {
            return 31 * keyId.hashCode() + Arrays.hashCode(wrapped);
        }

        @Override
        public String toString() {
            return "Encryption[keyId=" + keyId + ", " + wrapped.length + " bytes]";
        }
    }

    /**
     * The coding of an erasure-coded version (paper §3.9): {@code dataChunks} ({@code k}) data chunks and
     * {@code chunkHashes.size() - k} parity chunks of {@code ceil(size / k)} bytes, chunk {@code i} on cloud
     * {@code clouds().get(i)} with SHA-256 {@code chunkHashes.get(i)}.
     *
     * @param dataChunks  {@code k}
     * @param chunkHashes the SHA-256 of every chunk, in chunk order
     */
    public record Erasure(int dataChunks, List<byte[]> chunkHashes) {
        public Erasure {
            chunkHashes = List.copyOf(chunkHashes);
            if (dataChunks < 1 || dataChunks > chunkHashes.size() || chunkHashes.size() > 256) {
                throw new IllegalArgumentException("erasure coding needs 1 <= k <= chunks <= 256, got k=" + dataChunks
                        + " of " + chunkHashes.size() + " chunks");
            }
            for (byte[] h : chunkHashes) {
                if (h.length != HASH_BYTES) {
                    throw new IllegalArgumentException("chunk hashes must be " + HASH_BYTES + " bytes, got " + h.length);
                }
            }
        }

        /** {@code k + m}. */
        public int totalChunks() {
            return chunkHashes.size();
        }

        /** The length of every chunk of a value of {@code size} bytes. */
        public long chunkLength(long size) {
            return (size + dataChunks - 1) / dataChunks;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Erasure e) || e.dataChunks != dataChunks || e.chunkHashes.size() != chunkHashes.size()) {
                return false;
            }
            for (int i = 0; i < chunkHashes.size(); i++) {
                if (!Arrays.equals(chunkHashes.get(i), e.chunkHashes.get(i))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            int h = dataChunks;
            for (byte[] c : chunkHashes) {
                h = 31 * h + Arrays.hashCode(c);
            }
            return h;
        }

        @Override
        public String toString() {
            return "Erasure[k=" + dataChunks + ", m=" + (chunkHashes.size() - dataChunks) + "]";
        }
    }

    /** Metadata of a version an unconditional write committed. */
    public Metadata(Timestamp timestamp, List<String> clouds, byte[] sha256, long size, Encryption encryption,
                    int cacheCounter, Erasure erasure, Chunked chunked, Map<String, String> userMetadata) {
        this(timestamp, clouds, sha256, size, encryption, cacheCounter, erasure, chunked, userMetadata, false);
    }

    /** Metadata without application metadata. */
    public Metadata(Timestamp timestamp, List<String> clouds, byte[] sha256, long size, Encryption encryption,
                    int cacheCounter, Erasure erasure, Chunked chunked) {
        this(timestamp, clouds, sha256, size, encryption, cacheCounter, erasure, chunked, Map.of());
    }

    /** Metadata of a version stored whole. */
    public Metadata(Timestamp timestamp, List<String> clouds, byte[] sha256, long size, Encryption encryption,
                    int cacheCounter, Erasure erasure) {
        this(timestamp, clouds, sha256, size, encryption, cacheCounter, erasure, null);
    }

    /** Metadata of a replicated version (no erasure coding). */
    public Metadata(Timestamp timestamp, List<String> clouds, byte[] sha256, long size, Encryption encryption,
                    int cacheCounter) {
        this(timestamp, clouds, sha256, size, encryption, cacheCounter, null);
    }

    /** Metadata of a plaintext (unencrypted) version. */
    public Metadata(Timestamp timestamp, List<String> clouds, byte[] sha256, long size) {
        this(timestamp, clouds, sha256, size, null);
    }

    /** Metadata without a cache counter. */
    public Metadata(Timestamp timestamp, List<String> clouds, byte[] sha256, long size, Encryption encryption) {
        this(timestamp, clouds, sha256, size, encryption, 0);
    }

    public Metadata {
        if (encryption != null && clouds.isEmpty()) {
            throw new IllegalArgumentException("a tombstone carries no data key");
        }
        Objects.requireNonNull(timestamp, "timestamp");
        clouds = List.copyOf(clouds);
        Objects.requireNonNull(sha256, "sha256");
        if (!clouds.isEmpty() && sha256.length != HASH_BYTES) {
            throw new IllegalArgumentException("sha256 must be " + HASH_BYTES + " bytes, got " + sha256.length);
        }
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0: " + size);
        }
        if (cacheCounter < 0) {
            throw new IllegalArgumentException("cacheCounter must be >= 0: " + cacheCounter);
        }
        if (erasure != null && erasure.totalChunks() != clouds.size()) {
            throw new IllegalArgumentException("an erasure-coded version has one cloud per chunk: "
                    + erasure.totalChunks() + " chunks, " + clouds.size() + " clouds");
        }
        userMetadata = userMetadata.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(userMetadata));
        if ((!userMetadata.isEmpty() || conditional) && clouds.isEmpty()) {
            throw new IllegalArgumentException("a tombstone carries no application metadata nor conditional mark");
        }
        if (chunked != null && (erasure != null || clouds.isEmpty())) {
            throw new IllegalArgumentException("a chunked version's manifest is replicated, never erasure-coded,"
                    + " and a tombstone has no chunks");
        }
    }

    /** A tombstone recording that the key was deleted at {@code timestamp}. */
    public static Metadata tombstone(Timestamp timestamp) {
        return new Metadata(timestamp, List.of(), new byte[0], 0);
    }

    /** The same version with another key-custody record (KEK rotation). */
    public Metadata withEncryption(Encryption e) {
        return new Metadata(timestamp, clouds, sha256, size, e, cacheCounter, erasure, chunked, userMetadata,
                conditional);
    }

    /** The same version with another cache counter (bounded staleness by versions). */
    public Metadata withCacheCounter(int counter) {
        return new Metadata(timestamp, clouds, sha256, size, encryption, counter, erasure, chunked, userMetadata,
                conditional);
    }

    /** The same live version, marked as committed by a write with a precondition (see {@link #conditional}). */
    public Metadata asConditional() {
        return isTombstone() || conditional ? this : new Metadata(timestamp, clouds, sha256, size, encryption,
                cacheCounter, erasure, chunked, userMetadata, true);
    }

    /** Whether the value is chunked (its stored bytes are a chunk manifest). */
    public boolean isChunked() {
        return chunked != null;
    }

    /** The length of a live version's value (not of its stored bytes, which may be ciphertext or a manifest). */
    public long valueLength() {
        if (chunked != null) {
            return chunked.valueLength();
        }
        if (encryption != null) {
            return Math.max(0, ValueCipher.plaintextLength(size, ValueCipher.DEFAULT_CHUNK_SIZE));
        }
        return size;
    }

    /** What the API reports about this (live) version. */
    public VersionInfo toVersionInfo() {
        return new VersionInfo(timestamp.sn(), timestamp.clientId(), clouds, valueLength(), Hashing.hex(sha256),
                timestamp.toString(), userMetadata, chunked == null ? 0 : Math.max(chunked.chunks(), 0));
    }

    /** Whether this records a deletion. */
    public boolean isTombstone() {
        return clouds.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Metadata m && timestamp.equals(m.timestamp) && clouds.equals(m.clouds)
                && Arrays.equals(sha256, m.sha256) && size == m.size && Objects.equals(encryption, m.encryption)
                && cacheCounter == m.cacheCounter && Objects.equals(erasure, m.erasure)
                && Objects.equals(chunked, m.chunked) && userMetadata.equals(m.userMetadata)
                && conditional == m.conditional;
    }

    @Override
    public int hashCode() {
        return Objects.hash(timestamp, clouds, Arrays.hashCode(sha256), size, encryption, cacheCounter, erasure,
                chunked, userMetadata, conditional);
    }

    @Override
    public String toString() {
        return isTombstone() ? "Metadata[" + timestamp + ", tombstone]"
                : "Metadata[" + timestamp + ", clouds=" + clouds + ", size=" + size + ", sha256="
                + Hashing.hex(sha256).substring(0, 12) + "..." + (encryption == null ? "" : ", " + encryption)
                + (cacheCounter == 0 ? "" : ", cacheCounter=" + cacheCounter)
                + (erasure == null ? "" : ", " + erasure)
                + (chunked == null ? "" : ", chunked value of " + chunked.valueLength() + " bytes")
                + (userMetadata.isEmpty() ? "" : ", metadata=" + userMetadata.keySet())
                + (conditional ? ", conditional" : "") + "]";
    }
}
