/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The block manifest of a chunked value (after Syndicate's): how the value was cut and where each chunk went. It
 * is stored as the version's own object, replicated and hash-checked like any small value; the metadata entry
 * keeps only its hash, size and clouds. Every chunk but the last holds {@code chunkSize} value bytes.
 *
 * <pre>
 * byte      format version (1)
 * varint    chunk size (value bytes per chunk)
 * varint    value length
 * byte      number of distinct clouds, then per cloud: byte length, ASCII id (the cloud table)
 * varint    number of chunks n = ceil(value length / chunk size)
 * per chunk:
 *   varint    stored size (ciphertext when encrypted)
 *   32 bytes  SHA-256 of the stored chunk
 *   byte      k: 0 = replicated, else erasure-coded into k data fragments
 *   byte      number of clouds c, then c bytes: index into the cloud table (fragment i on cloud i)
 *   if k > 0: c SHA-256s, one per fragment
 * </pre>
 * Decoding rejects unknown versions, truncation, trailing bytes and a chunk count that does not match the length.
 * About 40 bytes per replicated chunk: 5 KiB for a 1 GiB value in 8 MiB chunks.
 *
 * @param chunkSize   value bytes per chunk (all but the last)
 * @param valueLength the value's length
 * @param chunks      the chunks, in value order
 */
record ChunkManifest(int chunkSize, long valueLength, List<Chunk> chunks) {
    static final int FORMAT_V1 = 1;

    /**
     * One stored chunk: its stored size and hash, and its placement as a layout records it.
     *
     * @param storedSize bytes stored (ciphertext when encrypted)
     * @param sha256     SHA-256 of the stored bytes
     * @param clouds     the clouds holding it (for erasure coding, fragment i on cloud i)
     * @param erasure    the erasure record, or null when replicated
     */
    record Chunk(long storedSize, byte[] sha256, List<String> clouds, Metadata.Erasure erasure) {
        Chunk {
            clouds = List.copyOf(clouds);
            if (sha256.length != Metadata.HASH_BYTES || clouds.isEmpty() || clouds.size() > 255) {
                throw new IllegalArgumentException("a chunk needs a 32-byte hash and 1 to 255 clouds");
            }
        }

        /** The chunk described as a stored version, so the layouts read it like one. */
        Metadata asVersion(Timestamp ts) {
            return new Metadata(ts, clouds, sha256, storedSize, null, 0, erasure);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Chunk c && c.storedSize == storedSize && Arrays.equals(c.sha256, sha256)
                    && c.clouds.equals(clouds) && Objects.equals(c.erasure, erasure);
        }

        @Override
        public int hashCode() {
            return Objects.hash(storedSize, Arrays.hashCode(sha256), clouds, erasure);
        }
    }

    ChunkManifest {
        chunks = List.copyOf(chunks);
        if (chunkSize < 1 || valueLength < 0 || chunks.size() != chunkCount(valueLength, chunkSize)) {
            throw new IllegalArgumentException("a manifest of a " + valueLength + "-byte value in chunks of "
                    + chunkSize + " needs " + chunkCount(Math.max(0, valueLength), Math.max(1, chunkSize))
                    + " chunks, has " + chunks.size());
        }
    }

    /** How many chunks a value of {@code length} bytes has in chunks of {@code chunkSize}. */
    static long chunkCount(long length, int chunkSize) {
        return (length + chunkSize - 1) / chunkSize;
    }

    /** The index of the chunk holding value byte {@code offset}. */
    int chunkAt(long offset) {
        return (int) (offset / chunkSize);
    }

    /** The offset in the value of chunk {@code index}'s first byte. */
    long offsetOf(int index) {
        return (long) index * chunkSize;
    }

    /** The number of value bytes in chunk {@code index}. */
    int valueBytesIn(int index) {
        return (int) Math.min(chunkSize, valueLength - offsetOf(index));
    }

    byte[] encode() {
        Map<String, Integer> table = new LinkedHashMap<>();
        chunks.forEach(c -> c.clouds().forEach(id -> table.putIfAbsent(id, table.size())));
        if (table.size() > 255) {
            throw new IllegalArgumentException("a manifest names at most 255 clouds");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + 40 * chunks.size());
        out.write(FORMAT_V1);
        Varints.write(out, chunkSize);
        Varints.write(out, valueLength);
        out.write(table.size());
        table.keySet().forEach(id -> {
            byte[] ascii = id.getBytes(StandardCharsets.US_ASCII);
            out.write(ascii.length);
            out.writeBytes(ascii);
        });
        Varints.write(out, chunks.size());
        for (Chunk c : chunks) {
            Varints.write(out, c.storedSize());
            out.writeBytes(c.sha256());
            out.write(c.erasure() == null ? 0 : c.erasure().dataChunks());
            out.write(c.clouds().size());
            c.clouds().forEach(id -> out.write(table.get(id)));
            if (c.erasure() != null) {
                c.erasure().chunkHashes().forEach(out::writeBytes);
            }
        }
        return out.toByteArray();
    }

    /**
     * Decodes a manifest (already checked against its hash in metadata).
     *
     * @throws MetadataFormatException if the bytes are not a valid manifest
     */
    static ChunkManifest decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            int version = in.get() & 0xff;
            if (version != FORMAT_V1) {
                throw new MetadataFormatException("unknown chunk manifest format " + version
                        + " (this client reads " + FORMAT_V1 + "); upgrade the client");
            }
            long chunkSize = Varints.read(in);
            long valueLength = Varints.read(in);
            if (chunkSize < 1 || chunkSize > Integer.MAX_VALUE || valueLength < 0) {
                throw new MetadataFormatException("chunk manifest with chunk size " + chunkSize + " and length "
                        + valueLength);
            }
            int clouds = in.get() & 0xff;
            List<String> table = new ArrayList<>(clouds);
            for (int i = 0; i < clouds; i++) {
                byte[] id = new byte[in.get() & 0xff];
                in.get(id);
                table.add(new String(id, StandardCharsets.US_ASCII));
            }
            long n = Varints.read(in);
            if (n != chunkCount(valueLength, (int) chunkSize) || n > bytes.length) {
                throw new MetadataFormatException("chunk manifest lists " + n + " chunks for a " + valueLength
                        + "-byte value in chunks of " + chunkSize);
            }
            List<Chunk> chunks = new ArrayList<>((int) n);
            for (long i = 0; i < n; i++) {
                long stored = Varints.read(in);
                byte[] sha = new byte[Metadata.HASH_BYTES];
                in.get(sha);
                int k = in.get() & 0xff;
                int count = in.get() & 0xff;
                List<String> ids = new ArrayList<>(count);
                for (int c = 0; c < count; c++) {
                    int index = in.get() & 0xff;
                    if (index >= table.size()) {
                        throw new MetadataFormatException("chunk " + i + " names cloud #" + index + " of "
                                + table.size());
                    }
                    ids.add(table.get(index));
                }
                Metadata.Erasure erasure = null;
                if (k > 0) {
                    List<byte[]> hashes = new ArrayList<>(count);
                    for (int c = 0; c < count; c++) {
                        byte[] h = new byte[Metadata.HASH_BYTES];
                        in.get(h);
                        hashes.add(h);
                    }
                    erasure = new Metadata.Erasure(k, hashes);
                }
                chunks.add(new Chunk(stored, sha, ids, erasure));
            }
            if (in.hasRemaining()) {
                throw new MetadataFormatException("chunk manifest has " + in.remaining() + " trailing bytes");
            }
            return new ChunkManifest((int) chunkSize, valueLength, chunks);
        } catch (java.nio.BufferUnderflowException e) {
            throw new MetadataFormatException("chunk manifest truncated");
        } catch (IllegalArgumentException e) {
            throw new MetadataFormatException("invalid chunk manifest: " + e.getMessage());
        }
    }
}
