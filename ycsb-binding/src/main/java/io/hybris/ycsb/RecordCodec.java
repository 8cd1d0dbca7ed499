/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Encodes a YCSB record (field name to value bytes) as one Hybris value, so that any number of fields with any
 * names and any binary values round-trip exactly.
 *
 * <p>Format, version 1: the magic byte {@code 0xB1}, the format version {@code 1}, the field count, then for
 * each field in ascending name order its UTF-8 name length, the name, the value length and the value bytes. Every
 * count and length is an unsigned LEB128 varint (7 bits per byte, low bits first), so a record of the default
 * YCSB shape (ten fields of 100 bytes) costs 25 bytes of framing. Decoding is strict: a wrong magic or version,
 * a length running past the end, a repeated or non-UTF-8 name, or trailing bytes are a
 * {@link RecordFormatException}; a value never written by this codec is never mistaken for a record.
 *
 * <p>Public so that applications reading YCSB-written data through plain Hybris, and benchmark baselines that
 * must store the same bytes, can use the same format. Stateless and thread-safe.
 */
public final class RecordCodec {
    /** The first byte of every record. */
    public static final int MAGIC = 0xB1;
    /** The format version this codec writes and reads. */
    public static final int VERSION = 1;

    private RecordCodec() {
    }

    /**
     * Encodes the fields (name order, so equal records give equal bytes).
     *
     * @throws IllegalArgumentException if a field name has no UTF-8 form (an unpaired surrogate): it would not
     *                                  round-trip, and two such names could encode alike
     */
    public static byte[] encode(Map<String, byte[]> fields) {
        SortedMap<String, byte[]> sorted = new TreeMap<>(fields);
        for (String name : sorted.keySet()) {
            checkName(name);
        }
        int estimate = 3;
        for (Map.Entry<String, byte[]> e : sorted.entrySet()) {
            estimate += 10 + e.getKey().length() * 3 + e.getValue().length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(estimate);
        out.write(MAGIC);
        out.write(VERSION);
        writeVarint(out, sorted.size());
        for (Map.Entry<String, byte[]> e : sorted.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            writeVarint(out, name.length);
            out.write(name, 0, name.length);
            byte[] value = e.getValue();
            writeVarint(out, value.length);
            out.write(value, 0, value.length);
        }
        return out.toByteArray();
    }

    /**
     * Decodes a record, keeping only the fields named in {@code wanted} ({@code null}: all). Fields not kept are
     * skipped without copying.
     *
     * @throws RecordFormatException if {@code bytes} is not a well-formed record
     */
    public static Map<String, byte[]> decode(byte[] bytes, Set<String> wanted) {
        Reader in = new Reader(bytes);
        int magic = in.readByte("magic byte");
        if (magic != MAGIC) {
            throw new RecordFormatException(String.format(
                    "not a YCSB record written by the Hybris binding: first byte 0x%02X, expected 0x%02X", magic,
                    MAGIC));
        }
        int version = in.readByte("format version");
        if (version != VERSION) {
            throw new RecordFormatException("record format version " + version + " is not supported (this binding"
                    + " reads version " + VERSION + "); upgrade the binding");
        }
        int count = in.readLength("field count");
        Map<String, byte[]> fields = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < count; i++) {
            String name = in.readName(i);
            if (!seen.add(name)) {
                throw new RecordFormatException("field \"" + name + "\" appears twice in the record");
            }
            int length = in.readLength("length of field \"" + name + "\"");
            if (wanted == null || wanted.contains(name)) {
                fields.put(name, in.readBytes(length, "value of field \"" + name + "\""));
            } else {
                in.skip(length, "value of field \"" + name + "\"");
            }
        }
        if (in.remaining() != 0) {
            throw new RecordFormatException(in.remaining() + " trailing bytes after the last of " + count
                    + " fields");
        }
        return fields;
    }

    private static void checkName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(String.format("field name \"%s\" has an unpaired surrogate"
                        + " U+%04X at index %d: it has no UTF-8 form, so it cannot be stored", name.replace(c, '?'),
                        (int) c, i));
            }
        }
    }

    private static void writeVarint(ByteArrayOutputStream out, int value) {
        int v = value;
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    /** A bounds-checked cursor over the encoded bytes. */
    private static final class Reader {
        private final byte[] bytes;
        private int pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        int remaining() {
            return bytes.length - pos;
        }

        int readByte(String what) {
            if (pos >= bytes.length) {
                throw truncated(what);
            }
            return bytes[pos++] & 0xFF;
        }

        int readLength(String what) {
            long value = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                int b = readByte(what);
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    // every length and count is bounded by the bytes left (a field takes at least two)
                    if (value > remaining()) {
                        throw new RecordFormatException(what + " is " + value + " but only " + remaining()
                                + " bytes remain");
                    }
                    return (int) value;
                }
            }
            throw new RecordFormatException(what + " is not a valid varint (more than 5 bytes)");
        }

        String readName(int index) {
            int length = readLength("length of field name #" + (index + 1));
            try {
                String name = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes, pos, length))
                        .toString();
                pos += length;
                return name;
            } catch (CharacterCodingException e) {
                throw new RecordFormatException("field name #" + (index + 1) + " is not valid UTF-8");
            }
        }

        byte[] readBytes(int length, String what) {
            if (length > remaining()) {
                throw truncated(what);
            }
            byte[] out = Arrays.copyOfRange(bytes, pos, pos + length);
            pos += length;
            return out;
        }

        void skip(int length, String what) {
            if (length > remaining()) {
                throw truncated(what);
            }
            pos += length;
        }

        private RecordFormatException truncated(String what) {
            return new RecordFormatException("record truncated: " + what + " runs past the end of the "
                    + bytes.length + "-byte value");
        }
    }
}
