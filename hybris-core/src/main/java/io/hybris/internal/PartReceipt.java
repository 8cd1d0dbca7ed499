/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.InvalidRequestException;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What uploading one part stored, handed to the caller to keep until the upload completes: the upload's version
 * (its timestamp), the part number, when its first and last chunk became durable (wall clock, for the sweep's
 * grace period) and the part's chunks as a format-2 {@link ChunkManifest}. Encoded as {@code byte 1, byte n +
 * version (ASCII), varint part, varint first, varint last, then the manifest}. The chunks' hashes are what a read
 * checks, so a receipt cannot make a value read other bytes than were uploaded.
 *
 * @param version       the upload's version ({@link Timestamp#toString()})
 * @param part          the part number
 * @param firstDurable  when the part's first chunk was stored, epoch milliseconds
 * @param lastDurable   when its last chunk was stored, epoch milliseconds
 * @param chunks        the part's chunks, each with its name index and length
 */
public record PartReceipt(String version, int part, long firstDurable, long lastDurable, ChunkManifest chunks) {
    private static final int FORMAT = 1;

    /** The part's length in bytes. */
    public long length() {
        return chunks.valueLength();
    }

    /** The receipt as bytes. */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128 + 48 * chunks.chunks().size());
        out.write(FORMAT);
        byte[] v = version.getBytes(StandardCharsets.US_ASCII);
        out.write(v.length);
        out.writeBytes(v);
        Varints.write(out, part);
        Varints.write(out, firstDurable);
        Varints.write(out, lastDurable);
        out.writeBytes(chunks.encode());
        return out.toByteArray();
    }

    /**
     * Parses a receipt written by {@link #encode}.
     *
     * @throws InvalidRequestException if the bytes are not one
     */
    public static PartReceipt decode(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            if ((in.get() & 0xff) != FORMAT) {
                throw invalid("unknown format");
            }
            byte[] v = new byte[in.get() & 0xff];
            in.get(v);
            long part = Varints.read(in);
            long first = Varints.read(in);
            long last = Varints.read(in);
            byte[] rest = new byte[in.remaining()];
            in.get(rest);
            ChunkManifest chunks = ChunkManifest.decode(rest);
            if (part < 1 || part > PartNames.MAX_PART || !chunks.isSparse()
                    || chunks.chunks().stream().anyMatch(c -> PartNames.partOf(c.nameIndex()) != part)) {
                throw invalid("part " + part + " lists chunks of another part");
            }
            return new PartReceipt(new String(v, StandardCharsets.US_ASCII), (int) part, first, last, chunks);
        } catch (BufferUnderflowException | IllegalArgumentException | MetadataFormatException e) {
            throw invalid(e.getMessage());
        }
    }

    private static InvalidRequestException invalid(String why) {
        return new InvalidRequestException("not a part receipt from PartUploads.upload (" + why + ")");
    }
}
