/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The compact, versioned binary form of {@link Metadata} kept in the metadata store.
 *
 * <pre>
 * byte      format version (1)
 * varint    timestamp sequence number
 * clientId  header byte: bit 7 set = packed base32 (5 bits per char), bit 6 set = a write id follows,
 *           bits 0-5 = length in chars; then the packed bytes, or the ASCII characters
 * varint    write id of the writing call (only if bit 6 of the client-id header is set; see Timestamp)
 * byte      number of clouds; 0 = tombstone, and nothing follows
 * varint    size
 * 32 bytes  SHA-256
 * per cloud: byte length, ASCII id
 * extensions, until the end: byte tag, varint length, body
 *   tag 1 = encryption: byte KEK-id length, ASCII KEK id ("" = data key unwrapped), varint length, wrapped key
 *   tag 3 = cache counter (bounded staleness by versions, paper §3.10): varint, written only when not 0
 *   tag 4 = erasure coding (paper §3.9): byte k (data chunks), then one 32-byte SHA-256 per chunk in chunk order;
 *           the cloud list is in chunk order (cloud i holds chunk i), so the number of chunks is the number of
 *           clouds and the parity count is clouds - k
 *   tag 7 = conditional: empty; the version was committed by a write with a precondition, which observed the
 *           version it replaced (written only when set; see {@link Metadata#conditional()})
 * </pre>
 * A replicated entry with a default (8-character) client id, a four-byte write id (see {@link WriteIds}) and two
 * 2-character cloud ids takes 53 bytes for a 1 KiB value. Decoding rejects unknown versions, truncation and trailing bytes.
 */
public final class MetadataCodec {
    /** The format version written by this codec. */
    public static final int FORMAT_V1 = 1;
    private static final int TAG_ENCRYPTION = 1;
    private static final int TAG_CACHE_COUNTER = 3;
    private static final int TAG_ERASURE = 4;
    private static final int TAG_CHUNKED = 5;
    private static final int TAG_USER_METADATA = 6;
    private static final int TAG_CONDITIONAL = 7;
    private static final String BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
    private static final int WRITE_ID_FLAG = 0x40;
    private static final int MAX_CLIENT_ID_CHARS = 0x3f;

    private MetadataCodec() {
    }

    /** Encodes metadata. */
    public static byte[] encode(Metadata m) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.write(FORMAT_V1);
        Varints.write(out, m.timestamp().sn());
        writeClientId(out, m.timestamp().clientId(), m.timestamp().hasWriteId());
        if (m.timestamp().hasWriteId()) {
            Varints.write(out, m.timestamp().writeId());
        }
        out.write(m.clouds().size());
        if (!m.isTombstone()) {
            Varints.write(out, m.size());
            out.writeBytes(m.sha256());
            for (String cloud : m.clouds()) {
                byte[] id = cloud.getBytes(StandardCharsets.US_ASCII);
                out.write(id.length);
                out.writeBytes(id);
            }
            if (m.encryption() != null) {
                ByteArrayOutputStream body = new ByteArrayOutputStream(80);
                byte[] keyId = m.encryption().keyId().getBytes(StandardCharsets.US_ASCII);
                body.write(keyId.length);
                body.writeBytes(keyId);
                Varints.write(body, m.encryption().wrapped().length);
                body.writeBytes(m.encryption().wrapped());
                out.write(TAG_ENCRYPTION);
                Varints.write(out, body.size());
                out.writeBytes(body.toByteArray());
            }
            if (m.erasure() != null) {
                Metadata.Erasure e = m.erasure();
                out.write(TAG_ERASURE);
                Varints.write(out, 1 + (long) Metadata.HASH_BYTES * e.totalChunks());
                out.write(e.dataChunks());
                e.chunkHashes().forEach(out::writeBytes);
            }
            if (m.chunked() != null) {
                ByteArrayOutputStream body = new ByteArrayOutputStream(10);
                Varints.write(body, m.chunked().valueLength());
                if (m.chunked().chunkSize() > 0) {
                    Varints.write(body, m.chunked().chunkSize());
                }
                out.write(TAG_CHUNKED);
                Varints.write(out, body.size());
                out.writeBytes(body.toByteArray());
            }
            if (!m.userMetadata().isEmpty()) {
                ByteArrayOutputStream body = new ByteArrayOutputStream(64);
                Varints.write(body, m.userMetadata().size());
                m.userMetadata().forEach((name, value) -> {
                    byte[] n = name.getBytes(StandardCharsets.UTF_8);
                    byte[] v = value.getBytes(StandardCharsets.UTF_8);
                    Varints.write(body, n.length);
                    body.writeBytes(n);
                    Varints.write(body, v.length);
                    body.writeBytes(v);
                });
                out.write(TAG_USER_METADATA);
                Varints.write(out, body.size());
                out.writeBytes(body.toByteArray());
            }
            if (m.conditional()) {
                out.write(TAG_CONDITIONAL);
                Varints.write(out, 0);
            }
            if (m.cacheCounter() != 0) {
                ByteArrayOutputStream body = new ByteArrayOutputStream(5);
                Varints.write(body, m.cacheCounter());
                out.write(TAG_CACHE_COUNTER);
                Varints.write(out, body.size());
                out.writeBytes(body.toByteArray());
            }
        }
        return out.toByteArray();
    }

    /**
     * Decodes metadata.
     *
     * @throws MetadataFormatException if the bytes are not a valid encoding
     */
    public static Metadata decode(byte[] bytes) {
        Reader in = new Reader(bytes);
        int version = in.u8();
        if (version != FORMAT_V1) {
            throw new MetadataFormatException("unknown metadata format version " + version
                    + " (this client reads version " + FORMAT_V1 + "); upgrade the client");
        }
        long sn = in.varLong();
        boolean[] writeIdFollows = new boolean[1];
        String clientId = readClientId(in, writeIdFollows);
        long writeId = Timestamp.NO_WRITE_ID;
        if (writeIdFollows[0]) {
            writeId = in.varLong();
            if (writeId < 0) {
                throw new MetadataFormatException("negative write id " + writeId);
            }
        }
        int clouds = in.u8();
        Timestamp ts = new Timestamp(sn, clientId, writeId);
        if (clouds == 0) {
            in.end();
            return Metadata.tombstone(ts);
        }
        long size = in.varLong();
        byte[] hash = in.bytes(Metadata.HASH_BYTES);
        List<String> ids = new ArrayList<>(clouds);
        for (int i = 0; i < clouds; i++) {
            ids.add(new String(in.bytes(in.u8()), StandardCharsets.US_ASCII));
        }
        Metadata.Encryption encryption = null;
        long cacheCounter = -1;
        Metadata.Erasure erasure = null;
        Metadata.Chunked chunked = null;
        java.util.Map<String, String> userMetadata = null;
        boolean conditional = false;
        while (in.remaining() > 0) {
            int tag = in.u8();
            long length = in.varLong();
            if (length > in.remaining()) {
                throw new MetadataFormatException("metadata extension " + tag + " truncated");
            }
            Reader body = new Reader(in.bytes((int) length));
            if (tag == TAG_CACHE_COUNTER && cacheCounter < 0) {
                cacheCounter = body.varLong();
                body.end();
                if (cacheCounter > Integer.MAX_VALUE) {
                    throw new MetadataFormatException("cache counter " + cacheCounter + " out of range");
                }
                continue;
            }
            if (tag == TAG_CONDITIONAL && !conditional) {
                body.end();
                conditional = true;
                continue;
            }
            if (tag == TAG_ERASURE && erasure == null) {
                int k = body.u8();
                if (k < 1 || k > clouds) {
                    throw new MetadataFormatException("erasure coding with k=" + k + " data chunks on " + clouds
                            + " clouds is invalid");
                }
                List<byte[]> hashes = new ArrayList<>(clouds);
                for (int i = 0; i < clouds; i++) {
                    hashes.add(body.bytes(Metadata.HASH_BYTES));
                }
                body.end();
                erasure = new Metadata.Erasure(k, hashes);
                continue;
            }
            if (tag == TAG_USER_METADATA && userMetadata == null) {
                long count = body.varLong();
                if (count > body.remaining()) {
                    throw new MetadataFormatException("application metadata with " + count + " pairs truncated");
                }
                userMetadata = new java.util.TreeMap<>();
                for (long i = 0; i < count; i++) {
                    String name = new String(body.bytes(length(body)), StandardCharsets.UTF_8);
                    String value = new String(body.bytes(length(body)), StandardCharsets.UTF_8);
                    if (userMetadata.put(name, value) != null) {
                        throw new MetadataFormatException("application metadata repeats '" + name + "'");
                    }
                }
                body.end();
                continue;
            }
            if (tag == TAG_CHUNKED && chunked == null) {
                long valueLength = body.varLong();
                long chunkSize = body.remaining() > 0 ? body.varLong() : 0;
                body.end();
                if (valueLength < 0 || chunkSize < 0 || chunkSize > Integer.MAX_VALUE) {
                    throw new MetadataFormatException("chunked value of length " + valueLength + " in chunks of "
                            + chunkSize);
                }
                chunked = new Metadata.Chunked(valueLength, (int) chunkSize);
                continue;
            }
            if (tag != TAG_ENCRYPTION || encryption != null) {
                throw new MetadataFormatException("unknown or repeated metadata extension " + tag
                        + "; it was written by a newer client: upgrade this one");
            }
            String keyId = new String(body.bytes(body.u8()), StandardCharsets.US_ASCII);
            long wrappedLength = body.varLong();
            if (wrappedLength > body.remaining()) {
                throw new MetadataFormatException("wrapped data key truncated");
            }
            encryption = new Metadata.Encryption(keyId, body.bytes((int) wrappedLength));
            body.end();
        }
        if (chunked != null && erasure != null) {
            throw new MetadataFormatException("a chunked value's manifest cannot be erasure-coded");
        }
        return new Metadata(ts, ids, hash, size, encryption, (int) Math.max(0, cacheCounter), erasure, chunked,
                userMetadata == null ? java.util.Map.of() : userMetadata, conditional);
    }

    private static int length(Reader in) {
        long n = in.varLong();
        if (n > in.remaining()) {
            throw new MetadataFormatException("a length of " + n + " bytes runs past the entry");
        }
        return (int) n;
    }

    private static void writeClientId(ByteArrayOutputStream out, String id, boolean writeIdFollows) {
        if (id.length() > MAX_CLIENT_ID_CHARS) {
            throw new IllegalArgumentException("client id longer than " + MAX_CLIENT_ID_CHARS + " characters: " + id);
        }
        int flags = writeIdFollows ? WRITE_ID_FLAG : 0;
        boolean packable = id.chars().allMatch(c -> BASE32.indexOf(c) >= 0);
        if (!packable) {
            byte[] ascii = id.getBytes(StandardCharsets.US_ASCII);
            out.write(flags | ascii.length);
            out.writeBytes(ascii);
            return;
        }
        out.write(0x80 | flags | id.length());
        int acc = 0;
        int bits = 0;
        for (int i = 0; i < id.length(); i++) {
            acc = (acc << 5) | BASE32.indexOf(id.charAt(i));
            bits += 5;
            if (bits >= 8) {
                bits -= 8;
                out.write((acc >>> bits) & 0xff);
            }
        }
        if (bits > 0) {
            out.write((acc << (8 - bits)) & 0xff);
        }
    }

    /** Reads a client id; its header's write-id flag is returned in {@code writeIdFollows[0]}. */
    private static String readClientId(Reader in, boolean[] writeIdFollows) {
        int header = in.u8();
        int length = header & MAX_CLIENT_ID_CHARS;
        writeIdFollows[0] = (header & WRITE_ID_FLAG) != 0;
        if ((header & 0x80) == 0) {
            return new String(in.bytes(length), StandardCharsets.US_ASCII);
        }
        byte[] packed = in.bytes((length * 5 + 7) / 8);
        StringBuilder sb = new StringBuilder(length);
        int acc = 0;
        int bits = 0;
        int pos = 0;
        while (sb.length() < length) {
            if (bits < 5) {
                acc = (acc << 8) | (packed[pos++] & 0xff);
                bits += 8;
            }
            bits -= 5;
            sb.append(BASE32.charAt((acc >>> bits) & 31));
        }
        return sb.toString();
    }

    private static final class Reader {
        private final byte[] buf;
        private int pos;

        Reader(byte[] buf) {
            this.buf = buf;
        }

        int u8() {
            need(1);
            return buf[pos++] & 0xff;
        }

        byte[] bytes(int n) {
            need(n);
            byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            return out;
        }

        long varLong() {
            long result = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = u8();
                result |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    if (result < 0) {
                        throw new MetadataFormatException("negative number in metadata");
                    }
                    return result;
                }
            }
            throw new MetadataFormatException("malformed varint in metadata");
        }

        void need(int n) {
            if (n < 0 || pos + n > buf.length) {
                throw new MetadataFormatException("metadata truncated at byte " + pos + " of " + buf.length);
            }
        }

        int remaining() {
            return buf.length - pos;
        }

        void end() {
            if (pos != buf.length) {
                throw new MetadataFormatException((buf.length - pos) + " unexpected trailing bytes in metadata");
            }
        }
    }
}
