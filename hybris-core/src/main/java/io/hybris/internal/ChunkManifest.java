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
 * keeps only its hash, size and clouds. Two formats:
 *
 * <ul>
 *   <li><b>1</b>, a value stored in one call: every chunk but the last holds {@code chunkSize} value bytes, and
 *       chunk {@code i} is named {@code <version name>#c<i>}.</li>
 *   <li><b>2</b>, a value uploaded in parts ({@link io.hybris.PartUploads}): {@code chunkSize} is 0, and each chunk
 *       records its own value length and name index (sparse, increasing: see {@link PartNames}).</li>
 * </ul>
 *
 * <pre>
 * byte      format version (1 or 2)
 * varint    chunk size (value bytes per chunk; 0 in format 2)
 * varint    value length
 * byte      number of distinct clouds, then per cloud: byte length, ASCII id (the cloud table)
 * varint    number of chunks n (format 1: n = ceil(value length / chunk size))
 * per chunk:
 *   format 2 only: varint name index, varint value bytes
 *   varint    stored size (ciphertext when encrypted)
 *   32 bytes  SHA-256 of the stored chunk
 *   byte      k: 0 = replicated, else erasure-coded into k data fragments
 *   byte      number of clouds c, then c bytes: index into the cloud table (fragment i on cloud i)
 *   if k > 0: c SHA-256s, one per fragment
 * </pre>
 * Decoding rejects unknown versions, truncation, trailing bytes, a chunk count that does not match the length
 * (format 1), and lengths that do not add up or name indices that do not increase (format 2). About 40 bytes per
 * replicated chunk: 5 KiB for a 1 GiB value in 8 MiB chunks.
 *
 * @param chunkSize   value bytes per chunk (all but the last), or 0 for a value uploaded in parts
 * @param valueLength the value's length
 * @param chunks      the chunks, in value order
 */
record ChunkManifest(int chunkSize, long valueLength, List<Chunk> chunks) {
    static final int FORMAT_V1 = 1;
    static final int FORMAT_V2 = 2;
    /**
     * The most chunks a value stored in one call may have: 2^23 (64 TiB in 8 MiB chunks, 512 GiB in 64 KiB ones). A
     * manifest is one array when it is stored and read (about 40 bytes per replicated chunk, more per erasure-coded
     * one), and its chunk records are held while the value is written: at 2^23 chunks that is about 320 MiB, where
     * the 84 million chunks of 5 TiB in 64 KiB ones would not fit an array at all.
     */
    static final long MAX_CHUNKS = 1L << 23;

    /**
     * One stored chunk: its stored size and hash, and its placement as a layout records it.
     *
     * @param storedSize bytes stored (ciphertext when encrypted)
     * @param sha256     SHA-256 of the stored bytes
     * @param clouds     the clouds holding it (for erasure coding, fragment i on cloud i)
     * @param erasure    the erasure record, or null when replicated
     * @param nameIndex  the index its name carries (format 2), or -1: its position (format 1)
     * @param valueBytes the value bytes it holds (format 2), or -1: as the chunk size gives (format 1)
     */
    record Chunk(long storedSize, byte[] sha256, List<String> clouds, Metadata.Erasure erasure, long nameIndex,
                 long valueBytes) {
        Chunk {
            clouds = List.copyOf(clouds);
            if (sha256.length != Metadata.HASH_BYTES || clouds.isEmpty() || clouds.size() > 255) {
                throw new IllegalArgumentException("a chunk needs a 32-byte hash and 1 to 255 clouds");
            }
            if (nameIndex < -1 || valueBytes < -1 || valueBytes > Integer.MAX_VALUE
                    || (nameIndex < 0) != (valueBytes < 0)) {
                throw new IllegalArgumentException("a chunk's name index and value bytes are both set or both -1: "
                        + nameIndex + ", " + valueBytes);
            }
        }

        /** A chunk of a value stored in one call (format 1): named by its position, sized by the chunk size. */
        Chunk(long storedSize, byte[] sha256, List<String> clouds, Metadata.Erasure erasure) {
            this(storedSize, sha256, clouds, erasure, -1, -1);
        }

        /** This chunk under name index {@code index}, holding {@code bytes} value bytes (format 2). */
        Chunk at(long index, long bytes) {
            return new Chunk(storedSize, sha256, clouds, erasure, index, bytes);
        }

        /** The chunk described as a stored version, so the layouts read it like one. */
        Metadata asVersion(Timestamp ts) {
            return new Metadata(ts, clouds, sha256, storedSize, null, 0, erasure);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Chunk c && c.storedSize == storedSize && Arrays.equals(c.sha256, sha256)
                    && c.clouds.equals(clouds) && Objects.equals(c.erasure, erasure) && c.nameIndex == nameIndex
                    && c.valueBytes == valueBytes;
        }

        @Override
        public int hashCode() {
            return Objects.hash(storedSize, Arrays.hashCode(sha256), clouds, erasure, nameIndex, valueBytes);
        }
    }

    ChunkManifest {
        chunks = List.copyOf(chunks);
        if (chunkSize == 0) {
            checkParts(valueLength, chunks);
        } else if (chunkSize < 1 || valueLength < 0 || chunks.size() != chunkCount(valueLength, chunkSize)
                || chunks.stream().anyMatch(c -> c.nameIndex() >= 0)) {
            throw new IllegalArgumentException("a manifest of a " + valueLength + "-byte value in chunks of "
                    + chunkSize + " needs " + chunkCount(Math.max(0, valueLength), Math.max(1, chunkSize))
                    + " chunks, has " + chunks.size() + " (each named by its position)");
        }
    }

    /** A manifest of a value uploaded in parts (format 2): each chunk with its own name index and length. */
    static ChunkManifest ofParts(List<Chunk> chunks) {
        return new ChunkManifest(0, chunks.stream().mapToLong(Chunk::valueBytes).sum(), chunks);
    }

    private static void checkParts(long valueLength, List<Chunk> chunks) {
        long sum = 0;
        long previous = -1;
        for (Chunk c : chunks) {
            if (c.nameIndex() <= previous || c.valueBytes() < 1) {
                throw new IllegalArgumentException("a manifest of parts needs increasing name indices and non-empty"
                        + " chunks; chunk " + c.nameIndex() + " follows " + previous + " with " + c.valueBytes()
                        + " bytes");
            }
            previous = c.nameIndex();
            sum += c.valueBytes();
        }
        if (sum != valueLength) {
            throw new IllegalArgumentException("a manifest of parts lists " + sum + " value bytes for a "
                    + valueLength + "-byte value");
        }
    }

    /** Whether the chunks carry their own name indices and lengths (format 2: a value uploaded in parts). */
    boolean isSparse() {
        return chunkSize == 0;
    }

    /** The index chunk {@code position} is named by. */
    long nameIndex(int position) {
        return isSparse() ? chunks.get(position).nameIndex() : position;
    }

    /** How many chunks a value of {@code length} bytes has in chunks of {@code chunkSize}. */
    static long chunkCount(long length, int chunkSize) {
        return (length + chunkSize - 1) / chunkSize;
    }

    /** The position of the chunk holding value byte {@code offset} (which must be below the value length). */
    int chunkAt(long offset) {
        if (!isSparse()) {
            return (int) (offset / chunkSize);
        }
        long start = 0;
        for (int i = 0; i < chunks.size(); i++) {
            start += chunks.get(i).valueBytes();
            if (offset < start) {
                return i;
            }
        }
        throw new IndexOutOfBoundsException("offset " + offset + " of a " + valueLength + "-byte value");
    }

    /** The offset in the value of chunk {@code index}'s first byte. */
    long offsetOf(int index) {
        if (!isSparse()) {
            return (long) index * chunkSize;
        }
        long start = 0;
        for (int i = 0; i < index; i++) {
            start += chunks.get(i).valueBytes();
        }
        return start;
    }

    /** The number of value bytes in chunk {@code index}. */
    int valueBytesIn(int index) {
        return isSparse() ? (int) chunks.get(index).valueBytes()
                : (int) Math.min(chunkSize, valueLength - offsetOf(index));
    }

    byte[] encode() {
        Map<String, Integer> table = new LinkedHashMap<>();
        chunks.forEach(c -> c.clouds().forEach(id -> table.putIfAbsent(id, table.size())));
        if (table.size() > 255) {
            throw new IllegalArgumentException("a manifest names at most 255 clouds");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + 40 * chunks.size());
        out.write(isSparse() ? FORMAT_V2 : FORMAT_V1);
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
            if (isSparse()) {
                Varints.write(out, c.nameIndex());
                Varints.write(out, c.valueBytes());
            }
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
            if (version != FORMAT_V1 && version != FORMAT_V2) {
                throw new MetadataFormatException("unknown chunk manifest format " + version
                        + " (this client reads " + FORMAT_V1 + " and " + FORMAT_V2 + "); upgrade the client");
            }
            boolean sparse = version == FORMAT_V2;
            long chunkSize = Varints.read(in);
            long valueLength = Varints.read(in);
            if ((sparse ? chunkSize != 0 : chunkSize < 1) || chunkSize > Integer.MAX_VALUE || valueLength < 0) {
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
            if ((sparse ? n > valueLength : n != chunkCount(valueLength, (int) chunkSize)) || n > bytes.length) {
                throw new MetadataFormatException("chunk manifest lists " + n + " chunks for a " + valueLength
                        + "-byte value in chunks of " + chunkSize);
            }
            List<Chunk> chunks = new ArrayList<>((int) n);
            for (long i = 0; i < n; i++) {
                long nameIndex = sparse ? Varints.read(in) : -1;
                long valueBytes = sparse ? Varints.read(in) : -1;
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
                chunks.add(new Chunk(stored, sha, ids, erasure, nameIndex, valueBytes));
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
