/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.internal.MultipartWriter;
import io.hybris.internal.PartReceipt;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Uploads of one large value in parts (the S3 multipart model; docs/streaming.md, "Uploads in parts"): parts are
 * uploaded in any order, in parallel and from any client of the deployment, each stored once as chunks of the
 * version the upload will commit; completing commits them as the key's value in one conditional update. Until
 * then readers see the previous value.
 *
 * <pre>{@code
 * PartUploads parts = PartUploads.of(hybris);
 * PartUpload upload = parts.start("videos", "film.mp4");
 * UploadedPart p1 = parts.upload(upload, 1, in1, length1);   // keep p1.toBytes() if the state must survive
 * UploadedPart p2 = parts.upload(upload, 2, in2, length2);
 * VersionInfo v = parts.complete(upload, List.of(p1, p2), PutOptions.none());
 * }</pre>
 *
 * <p><b>Ordering</b>: starting reserves a version ordered after the key's current one and after any write made
 * before completion; between two uploads of one key the one started later wins (two started over the same version,
 * with no write in between, are ordered by client id, then write id: "later" is not measured by a clock), and
 * completing the other after it fails with {@link PreconditionFailedException} (nothing committed by that call; a
 * complete repeated after a later write cannot tell whether its first attempt committed, and says so).
 * <b>Idle uploads</b>: an upload that stores nothing for half of {@code hybris.gc.grace} cannot complete
 * ({@link UploadExpiredException}), because the orphan sweep may take its parts. Thread-safe; a view of its client, which must stay open.
 */
public final class PartUploads {
    private final Hybris client;
    private final MultipartWriter writer;

    private PartUploads(Hybris client) {
        this.client = client;
        this.writer = client.engine.multipart();
    }

    /** The uploads in parts of {@code client}. */
    public static PartUploads of(Hybris client) {
        if (client == null) {
            throw new InvalidRequestException("client must not be null");
        }
        return new PartUploads(client);
    }

    /**
     * Starts an upload of a new value of {@code key}: reads its current version (one metadata read) and reserves
     * the upload's. Nothing is written.
     *
     * @throws InvalidRequestException bad container or key
     */
    public PartUpload start(String container, String key) {
        return client.call(() -> new PartUpload(container, key, writer.start(checked(container, key), key)));
    }

    /**
     * Stores part {@code partNumber} (1 to 10,000) of {@code upload}: the {@code length} bytes of {@code in}
     * ({@code -1} if not known), chunked, encrypted and placed like any large value; the bytes are hashed as they
     * pass and written once. Uploading a part number again replaces the part when its result replaces the first
     * one's in {@link #complete}. Nothing becomes visible. On failure the part's chunks are deleted.
     *
     * @throws InvalidRequestException     bad part number or stream, or the upload was completed (before the part
     *                                     was stored; its chunks are deleted)
     * @throws ValueLengthMismatchException the stream did not hold {@code length} bytes
     * @throws ValueTooLargeException       the part is above {@code hybris.value.max-size} or 2^21 chunks of
     *                                     {@code hybris.chunk.size}, the most one part holds (the message names which)
     * @throws NotEnoughCloudsException     a chunk could not be stored on enough clouds
     * @throws HybrisException              the stream stalled for half of {@code hybris.gc.grace} between two chunks
     *                                     (the orphan sweep may have taken the first ones): upload the part again
     */
    public UploadedPart upload(PartUpload upload, int partNumber, InputStream in, long length) {
        checked(upload);
        return client.call(() -> UploadedPart.of(writer.upload(upload.container(), upload.key(), upload.token(),
                partNumber, in, length)));
    }

    /**
     * Commits {@code parts} (in increasing part number; each from this upload) as the value of the upload's key, in
     * one conditional update, with the metadata and precondition of {@code options}. Chunks of the upload that
     * {@code parts} does not name are deleted afterwards. Completing an upload that already completed returns its
     * version. Do not complete one upload concurrently with different parts: both manifests are stored under the one
     * version's name, and the one stored last may replace the committed one's (docs/streaming.md).
     *
     * @throws InvalidRequestException     no parts, parts out of order or from another upload
     * @throws PreconditionFailedException the precondition failed, or a newer version was committed after the
     *                                     upload started (nothing committed)
     * @throws UploadExpiredException      the upload stored nothing for half of {@code hybris.gc.grace}, or a
     *                                     chunk of its parts is on no cloud (the orphan sweep took it)
     */
    public VersionInfo complete(PartUpload upload, List<UploadedPart> parts, PutOptions options) {
        checked(upload);
        if (parts == null) {
            throw new InvalidRequestException("parts must not be null");
        }
        List<PartReceipt> receipts = new ArrayList<>(parts.size());
        for (UploadedPart p : parts) {
            if (p == null) {
                throw new InvalidRequestException("parts must not contain null (element " + receipts.size() + ")");
            }
            receipts.add(p.receipt());
        }
        return client.call(() -> writer.complete(upload.container(), upload.key(), upload.token(), receipts,
                options));
    }

    /**
     * Abandons {@code upload}: deletes the chunks of its parts in the background (parts still being uploaded leave
     * theirs to the orphan sweep, and so does an upload whose completion on this client is running or failed after
     * sending its metadata update, which may still land). Do not complete the same upload concurrently; this client
     * refuses to upload parts of it or complete it afterwards (another client cannot tell: do not).
     *
     * @throws InvalidRequestException if the upload was completed (delete the key instead)
     */
    public void abort(PartUpload upload) {
        checked(upload);
        client.call(() -> {
            writer.abort(upload.container(), upload.key(), upload.token());
            return null;
        });
    }

    private static void checked(PartUpload upload) {
        if (upload == null) {
            throw new InvalidRequestException("upload must not be null: pass the PartUpload that start returned");
        }
    }

    private static String checked(String container, String key) {
        io.hybris.internal.Names.checkContainer(container);
        io.hybris.internal.Names.checkKey(key);
        return container;
    }
}
