/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.MetadataStoreException;
import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataUpdate;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of one change-log record, for stores that keep their log as values ({@code MetadataStore#changes}):
 * a format byte ({@value #FORMAT_V1}), the number of keys, then per key the length and UTF-8 bytes of the key and
 * the length and bytes of its new value (lengths as 4-byte big-endian integers).
 */
public final class ChangeLogCodec {
    /** The only format so far. */
    public static final int FORMAT_V1 = 1;

    private ChangeLogCodec() {
    }

    /** The record of one commit of {@code updates}. */
    public static byte[] encode(List<MetadataUpdate> updates) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 128 * updates.size());
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(FORMAT_V1);
            out.writeInt(updates.size());
            for (MetadataUpdate u : updates) {
                byte[] key = u.key().key().getBytes(StandardCharsets.UTF_8);
                out.writeInt(key.length);
                out.write(key);
                out.writeInt(u.value().length);
                out.write(u.value());
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
    }

    /**
     * The commit a record holds.
     *
     * @param sequence the sequence number the store gave the record
     * @param record   the bytes {@link #encode} made
     * @param where    names the record in the error message (store and log entry)
     * @throws MetadataStoreException if the bytes are not such a record
     */
    public static MetadataChange decode(long sequence, byte[] record, String where) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(record));
            int format = in.readUnsignedByte();
            if (format != FORMAT_V1) {
                throw new MetadataStoreException("change-log record " + where + " has format " + format
                        + ", this Hybris reads format " + FORMAT_V1 + ": upgrade Hybris");
            }
            int n = in.readInt();
            if (n < 0 || n > record.length) {
                throw new IOException("bad key count " + n);
            }
            List<MetadataChange.Update> updates = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String key = new String(readBytes(in, record.length), StandardCharsets.UTF_8);
                updates.add(new MetadataChange.Update(key, readBytes(in, record.length)));
            }
            if (in.available() != 0) {
                throw new IOException(in.available() + " trailing bytes");
            }
            return new MetadataChange(sequence, updates);
        } catch (IOException e) {
            throw new MetadataStoreException("change-log record " + where + " is corrupt (" + e.getMessage()
                    + "); the metadata store's log was written by something other than Hybris", e);
        }
    }

    private static byte[] readBytes(DataInputStream in, int max) throws IOException {
        int len = in.readInt();
        if (len < 0 || len > max) {
            throw new IOException("bad length " + len);
        }
        byte[] b = new byte[len];
        in.readFully(b);
        return b;
    }
}
