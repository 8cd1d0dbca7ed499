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
import java.util.Base64;

/**
 * What identifies an upload in parts between calls and clients: the timestamp reserved for the version it will
 * commit (its chunks are named under it) and the custody record of its data key (null: plaintext). Encoded as
 * URL-safe base64 of {@code byte 1, varint sn, byte n + client id, varint writeId + 1, byte hasKey [, byte n + key
 * id (UTF-8), varint n + wrapped key]}: no secret in the clear beyond what metadata holds.
 *
 * @param timestamp  the version's timestamp, reserved when the upload started
 * @param encryption the data key's custody record, or null when values are stored unencrypted
 */
public record UploadToken(Timestamp timestamp, Metadata.Encryption encryption) {
    private static final int FORMAT = 1;

    /** The token as text. */
    public String encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(96);
        out.write(FORMAT);
        Varints.write(out, timestamp.sn());
        byte[] client = timestamp.clientId().getBytes(StandardCharsets.US_ASCII);
        out.write(client.length);
        out.writeBytes(client);
        Varints.write(out, timestamp.writeId() + 1);
        out.write(encryption == null ? 0 : 1);
        if (encryption != null) {
            byte[] id = encryption.keyId().getBytes(StandardCharsets.UTF_8);
            out.write(id.length);
            out.writeBytes(id);
            Varints.write(out, encryption.wrapped().length);
            out.writeBytes(encryption.wrapped());
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
    }

    /**
     * Parses a token written by {@link #encode}.
     *
     * @throws InvalidRequestException if it is not one
     */
    public static UploadToken decode(String token) {
        if (token == null || token.isEmpty() || token.length() > 2048) {
            throw invalid(token);
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(Base64.getUrlDecoder().decode(token));
            if ((in.get() & 0xff) != FORMAT) {
                throw invalid(token);
            }
            long sn = Varints.read(in);
            byte[] client = new byte[in.get() & 0xff];
            in.get(client);
            long writeId = Varints.read(in) - 1;
            Metadata.Encryption encryption = null;
            if (in.get() == 1) {
                byte[] id = new byte[in.get() & 0xff];
                in.get(id);
                long n = Varints.read(in);
                if (n > in.remaining()) {
                    throw invalid(token);
                }
                byte[] wrapped = new byte[(int) n];
                in.get(wrapped);
                encryption = new Metadata.Encryption(new String(id, StandardCharsets.UTF_8), wrapped);
            }
            if (in.hasRemaining()) {
                throw invalid(token);
            }
            String clientId = new String(client, StandardCharsets.US_ASCII);
            if (!io.hybris.spi.VersionName.isValidClientId(clientId)) {
                throw invalid(token);
            }
            return new UploadToken(new Timestamp(sn, clientId, writeId), encryption);
        } catch (IllegalArgumentException | BufferUnderflowException | MetadataFormatException e) {
            throw invalid(token);
        }
    }

    private static InvalidRequestException invalid(String token) {
        return new InvalidRequestException("'" + (token == null ? "null" : token.length() > 64
                ? token.substring(0, 64) + "..." : token) + "' is not an upload token from PartUploads.start");
    }
}
