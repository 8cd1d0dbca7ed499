/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The self-describing cache entries kept under a key's plain (unversioned) cache key for the bounded-staleness
 * modes (paper §3.10). Such a read skips the metadata store, so the entry carries the metadata of the version it
 * holds (timestamp, hash, size, encryption custody record), the name it belongs to, and the time at which it was
 * known to be current:
 *
 * <pre>
 * byte     magic 0xC7
 * byte     kind (1 = bounded by time, 2 = bounded by versions)
 * 8 bytes  known-current time, milliseconds since the epoch (big-endian)
 * varint   name length, UTF-8 "container/key"
 * varint   metadata length, metadata ({@link MetadataCodec}; a tombstone records a deletion)
 * varint   stored length, the stored bytes (ciphertext when encrypted; 0 for a tombstone)
 * </pre>
 * Decoding checks the format, the name, and the stored bytes against the hash and size in the embedded metadata:
 * this catches corruption and misplaced entries, but not a cache that forges a self-consistent entry (see
 * {@code docs/cache.md}).
 */
final class CacheEntryCodec {
    static final int KIND_TIME = 1;
    static final int KIND_VERSIONS = 2;
    private static final int MAGIC = 0xC7;

    /** A decoded entry. */
    record Entry(int kind, long knownAtMillis, Metadata meta, byte[] stored) {
    }

    private CacheEntryCodec() {
    }

    static byte[] encode(int kind, long knownAtMillis, String name, Metadata meta, byte[] stored) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] m = MetadataCodec.encode(meta);
        byte[] s = stored == null ? new byte[0] : stored;
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length + n.length + m.length + 32);
        out.write(MAGIC);
        out.write(kind);
        out.writeBytes(ByteBuffer.allocate(8).putLong(knownAtMillis).array());
        Varints.write(out, n.length);
        out.writeBytes(n);
        Varints.write(out, m.length);
        out.writeBytes(m);
        Varints.write(out, s.length);
        out.writeBytes(s);
        return out.toByteArray();
    }

    /**
     * Decodes and verifies an entry.
     *
     * @throws IllegalArgumentException naming what is wrong, if the entry is malformed, belongs to another name or
     *                                  kind, or its stored bytes do not match its metadata
     */
    static Entry decode(byte[] bytes, int expectedKind, String expectedName) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            if ((in.get() & 0xff) != MAGIC) {
                throw new IllegalArgumentException("not a Hybris cache entry");
            }
            int kind = in.get() & 0xff;
            if (kind != expectedKind) {
                throw new IllegalArgumentException("entry of kind " + kind + ", expected " + expectedKind);
            }
            long knownAt = in.getLong();
            String name = new String(take(in, readVarInt(in)), StandardCharsets.UTF_8);
            if (!name.equals(expectedName)) {
                throw new IllegalArgumentException("entry belongs to '" + name + "', not '" + expectedName + "'");
            }
            Metadata meta = MetadataCodec.decode(take(in, readVarInt(in)));
            byte[] stored = take(in, readVarInt(in));
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " trailing bytes");
            }
            if (meta.isTombstone() ? stored.length != 0 : !CacheLayer.matches(meta, stored)) {
                throw new IllegalArgumentException("stored bytes do not match the entry's hash and size");
            }
            return new Entry(kind, knownAt, meta, stored);
        } catch (java.nio.BufferUnderflowException | MetadataFormatException e) {
            throw new IllegalArgumentException("malformed entry: " + e.getMessage(), e);
        }
    }

    private static byte[] take(ByteBuffer in, int n) {
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("length " + n + " exceeds the " + in.remaining() + " bytes left");
        }
        byte[] out = new byte[n];
        in.get(out);
        return out;
    }

    private static int readVarInt(ByteBuffer in) {
        int result = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            int b = in.get() & 0xff;
            result |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IllegalArgumentException("malformed varint");
    }
}
