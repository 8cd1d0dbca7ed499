/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.ByteRange;
import io.hybris.DeleteOptions;
import io.hybris.DescribedKey;
import io.hybris.DescribedKeyPage;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.InvalidRequestException;
import io.hybris.KeyPage;
import io.hybris.NotEnoughCloudsException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.UploadExpiredException;
import io.hybris.UploadedPart;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import org.w3c.dom.Element;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Multipart uploads on Hybris's uploads in parts ({@link PartUploads}): each part is stored once, as chunks of the
 * version the upload will commit, and completing commits the named parts in one conditional update — the bytes are
 * never copied. The gateway keeps an upload's state in its uploads container: a record {@code <bucket>/<upload id>}
 * (the object key, the metadata, the start time, the core upload's token, and its state: {@code open}, then
 * {@code completing}) and, per part, {@code <bucket>/<upload id>/<part number>} holding the part's receipt with
 * its MD5 (the part's ETag) and size. Complete and abort serialise through the record: complete marks it
 * {@code completing} with a conditional write before it commits, abort deletes it with a conditional delete, so an
 * abort never deletes the parts of a completing upload. While complete runs, the response (already 200) gets a
 * space every few seconds, as S3 does. A part that lands after its upload was aborted or completed removes its
 * receipt and answers {@code NoSuchUpload}; a retried complete of a committed upload returns the object, also once
 * its record is gone (the key then holds an object of the named parts' ETag). Abandoned
 * uploads stay listed until aborted; their parts go to the orphan sweep once older than {@code hybris.gc.grace},
 * after which completing them answers {@code NoSuchUpload}.
 */
final class MultipartUploads {
    static final long MIN_PART = 5L << 20;
    private static final int MAX_PARTS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    static final String PART_SIZE = "s3.ps";
    private static final String TOKEN = "token";
    private static final String STATE = "state";
    private static final String OPEN = "open";
    private static final String COMPLETING = "completing";
    /** The ETag of the parts the complete that marked the record names, and when (its wall clock; not judged). */
    private static final String PARTS = "parts";
    private static final String SINCE = "completing-since";
    /** How long a complete may run before another naming other parts may take over (seen by this gateway). */
    private static final java.time.Duration STALE_COMPLETION = java.time.Duration.ofMinutes(10);

    private final Hybris hybris;
    private final PartUploads parts;
    private final Buckets buckets;
    private final ScheduledExecutorService keepAlive;
    private final CompletionSightings sightings;

    /** @param nanoTime the monotonic clock stale completing marks are judged by ({@code System::nanoTime}) */
    MultipartUploads(Hybris hybris, Buckets buckets, java.util.function.LongSupplier nanoTime) {
        this.hybris = hybris;
        this.sightings = new CompletionSightings(STALE_COMPLETION, nanoTime);
        this.parts = PartUploads.of(hybris);
        this.buckets = buckets;
        this.keepAlive = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hybris-s3-keepalive");
            t.setDaemon(true);
            return t;
        });
    }

    void close() {
        keepAlive.shutdownNow();
    }

    private static String record(String bucket, String uploadId) {
        return bucket + "/" + uploadId;
    }

    private static String part(String bucket, String uploadId, int n) {
        return record(bucket, uploadId) + "/" + String.format("%05d", n);
    }

    void create(S3Request r) throws IOException {
        String bucket = r.bucket();
        Keys.check(r.key());
        buckets.require(bucket);
        Map<String, String> meta = ObjectMetadata.fromRequest(r);
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        String uploadId = HexFormat.of().formatHex(id);
        PartUpload started = Failures.translate(() -> parts.start(bucket, r.key()));
        Properties p = new Properties();
        p.setProperty("key", r.key());
        p.setProperty(TOKEN, started.token());
        p.setProperty(STATE, OPEN);
        p.setProperty("initiated", Long.toString(System.currentTimeMillis()));
        meta.forEach((k, v) -> p.setProperty("meta." + k, v));
        Failures.translate(() -> hybris.put(Buckets.UPLOADS, record(bucket, uploadId), bytesOf(p),
                PutOptions.ifAbsent()));
        Exchanges.xml(r.exchange(), 200, S3Xml.document("InitiateMultipartUploadResult").element("Bucket", bucket)
                .element("Key", r.key()).element("UploadId", uploadId).toString());
    }

    /** An upload's record and the Hybris version it was read at (for the conditional writes that change it). */
    private record Upload(Properties props, String version, String bucket, String key) {
        PartUpload core() {
            return new PartUpload(bucket, key, props.getProperty(TOKEN));
        }

        boolean completing() {
            return COMPLETING.equals(props.getProperty(STATE));
        }
    }

    /** The upload's record, checked against the request's key. */
    private Upload upload(String bucket, String key, String uploadId) {
        if (uploadId == null || !uploadId.matches("[0-9a-f]{32}")) {
            throw noSuchUpload(uploadId);
        }
        Optional<Upload> found = storedRecord(bucket, uploadId);
        if (found.isEmpty()) {
            removeReceipts(bucket, uploadId); // left by an abort or complete that failed after removing the record
            throw noSuchUpload(uploadId);
        }
        Upload u = found.get();
        if (!key.equals(u.key()) || u.props().getProperty(TOKEN) == null) {
            throw noSuchUpload(uploadId);
        }
        return u;
    }

    /** The stored record of an upload, if it still exists. */
    private Optional<Upload> storedRecord(String bucket, String uploadId) {
        return Failures.translate(() -> hybris.get(Buckets.UPLOADS, record(bucket, uploadId), ByteRange.all()))
                .map(stream -> {
                    try (ValueStream in = stream) {
                        Properties p = new Properties();
                        p.load(new ByteArrayInputStream(in.readAllBytes()));
                        return new Upload(p, in.version().version(), bucket, p.getProperty("key"));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    private static byte[] bytesOf(Properties p) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            p.store(out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static S3Exception noSuchUpload(String uploadId) {
        return new S3Exception(404, "NoSuchUpload", "The specified multipart upload does not exist (it may have"
                + " been aborted or completed): " + uploadId);
    }

    void uploadPart(S3Request r, Authenticated auth) throws IOException {
        if (r.header("x-amz-copy-source") != null) {
            throw S3Exception.notImplemented("UploadPartCopy");
        }
        String bucket = r.bucket();
        buckets.require(bucket);
        int n = partNumber(r.param("partNumber"));
        String uploadId = r.param("uploadId");
        PartUpload upload = upload(bucket, r.key(), uploadId).core();
        Payloads.Payload payload = Payloads.open(r, auth);
        // refused for an upload that committed: its record is gone, or still marked completing (the complete's
        // clean-up has not run or failed); either way the upload is over, as for a part to a completed S3 upload
        UploadedPart stored = Failures.translate(() -> parts.upload(upload, n, payload.in(), payload.length()),
                refused -> storedRecord(bucket, uploadId).map(Upload::completing).orElse(true)
                        ? noSuchUpload(uploadId) : refused);
        String md5 = payload.in().md5Hex();
        Failures.translate(() -> hybris.put(Buckets.UPLOADS, part(bucket, uploadId, n), stored.toBytes(),
                PutOptions.none().withMetadata(Map.of(ObjectMetadata.ETAG, md5, PART_SIZE,
                        Long.toString(stored.size()), ObjectMetadata.MTIME,
                        Long.toString(System.currentTimeMillis())))));
        if (storedRecord(bucket, uploadId).isEmpty()) {
            // aborted or completed while the part was sent: that operation listed the receipts after removing the
            // record, so it may have missed this one, which would stay for good (and keep the bucket undeletable)
            Failures.translate(() -> hybris.delete(Buckets.UPLOADS, part(bucket, uploadId, n)));
            throw noSuchUpload(uploadId);
        }
        r.exchange().getResponseHeaders().set("ETag", ObjectMetadata.quoted(md5));
        Exchanges.empty(r.exchange(), 200);
    }

    private static int partNumber(String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= MAX_PARTS) {
                return n;
            }
        } catch (NumberFormatException | NullPointerException e) {
            // below
        }
        throw S3Exception.invalidArgument("Part number must be an integer between 1 and " + MAX_PARTS + ", inclusive");
    }

    private static int maxParts(String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw S3Exception.invalidArgument("max-parts must be an integer: " + v);
        }
    }

    /** The stored parts of an upload, by number, with their versions. */
    private Map<Integer, VersionInfo> parts(String bucket, String uploadId) {
        Map<Integer, VersionInfo> out = new LinkedHashMap<>();
        String prefix = record(bucket, uploadId) + "/";
        String cursor = null;
        do {
            DescribedKeyPage page = hybris.listDescribed(Buckets.UPLOADS, prefix, cursor, 1000);
            for (DescribedKey part : page.keys()) {
                out.put(Integer.parseInt(part.key().substring(prefix.length())), part.version());
            }
            cursor = page.nextCursor().orElse(null);
        } while (cursor != null);
        return out;
    }

    private static long partSize(VersionInfo partRecord) {
        return Long.parseLong(partRecord.metadata().getOrDefault(PART_SIZE, "0"));
    }

    void listParts(S3Request r) throws IOException {
        String bucket = r.bucket();
        buckets.require(bucket);
        String uploadId = r.param("uploadId");
        upload(bucket, r.key(), uploadId);
        int marker = Listings.nonNegative("part-number-marker", r.param("part-number-marker"), 0); // 0: S3's start
        int max = r.param("max-parts") == null ? 1000 : Math.max(1, Math.min(1000, maxParts(r.param("max-parts"))));
        S3Xml xml = S3Xml.document("ListPartsResult").element("Bucket", bucket).element("Key", r.key())
                .element("UploadId", uploadId).element("PartNumberMarker", marker).element("MaxParts", max)
                .element("StorageClass", "STANDARD");
        List<Map.Entry<Integer, VersionInfo>> parts = parts(bucket, uploadId).entrySet().stream()
                .filter(e -> e.getKey() > marker).sorted(Map.Entry.comparingByKey()).toList();
        boolean truncated = parts.size() > max;
        List<Map.Entry<Integer, VersionInfo>> shown = parts.subList(0, Math.min(max, parts.size()));
        xml.element("IsTruncated", truncated);
        if (truncated) {
            xml.element("NextPartNumberMarker", shown.get(shown.size() - 1).getKey());
        }
        for (Map.Entry<Integer, VersionInfo> e : shown) {
            xml.start("Part").element("PartNumber", e.getKey())
                    .element("LastModified", S3Xml.time(ObjectMetadata.lastModified(e.getValue())))
                    .element("ETag", ObjectMetadata.quoted(ObjectMetadata.etag(e.getValue())))
                    .element("Size", partSize(e.getValue())).end();
        }
        Exchanges.xml(r.exchange(), 200, xml.toString());
    }

    /**
     * ListMultipartUploads: the bucket's uploads in progress (not those being completed), paged as S3 pages them
     * ({@link UploadListing}); every record is read, so a listing costs a read per upload in progress.
     */
    void listUploads(S3Request r) throws IOException {
        String bucket = r.bucket();
        buckets.require(bucket);
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        String delimiter = r.param("delimiter") == null || r.param("delimiter").isEmpty() ? null
                : r.param("delimiter");
        String keyMarker = r.param("key-marker") == null || r.param("key-marker").isEmpty() ? null
                : r.param("key-marker");
        String uploadIdMarker = keyMarker == null ? null : r.param("upload-id-marker");
        int max = Listings.maxParam("max-uploads", r.param("max-uploads"));
        boolean url = "url".equals(r.param("encoding-type"));
        if (r.param("encoding-type") != null && !url) {
            throw S3Exception.invalidArgument("Invalid Encoding Method specified in Request: "
                    + r.param("encoding-type"));
        }
        List<UploadListing.Entry> all = new ArrayList<>();
        String records = bucket + "/";
        String cursor = null;
        do {
            KeyPage page = hybris.list(Buckets.UPLOADS, records, cursor, 1000);
            for (String k : page.keys()) {
                String uploadId = k.substring(records.length());
                if (uploadId.contains("/")) {
                    continue; // a part
                }
                Optional<Upload> found = storedRecord(bucket, uploadId);
                if (found.isEmpty() || found.get().completing()) {
                    continue; // completed or aborted since the listing
                }
                Properties p = found.get().props();
                all.add(new UploadListing.Entry(p.getProperty("key"), uploadId,
                        Long.parseLong(p.getProperty("initiated", "0"))));
            }
            cursor = page.nextCursor().orElse(null);
        } while (cursor != null);
        UploadListing.Page page = UploadListing.page(all, prefix, delimiter, keyMarker, uploadIdMarker, max);
        Exchanges.xml(r.exchange(), 200, UploadListing.xml(bucket, page, prefix, delimiter, keyMarker,
                uploadIdMarker, max, url));
    }

    void abort(S3Request r) throws IOException {
        String bucket = r.bucket();
        buckets.require(bucket);
        String uploadId = r.param("uploadId");
        Upload upload = upload(bucket, r.key(), uploadId);
        if (upload.completing()) {
            throw noSuchUpload(uploadId); // being completed: S3 answers an abort of a completed upload so
        }
        // the record first, conditionally: no complete starts after it, and one that marked the record wins
        boolean removed = Failures.translate(() -> {
            try {
                hybris.delete(Buckets.UPLOADS, record(bucket, uploadId), DeleteOptions.ifMatch(upload.version()));
                return true;
            } catch (PreconditionFailedException e) {
                return false;
            }
        });
        if (!removed) {
            throw noSuchUpload(uploadId); // a complete marked it meanwhile, or another abort removed it
        }
        try {
            parts.abort(upload.core());
        } catch (InvalidRequestException completed) {
            // a complete that marked the record before us committed: its parts are the object now
        }
        removeReceipts(bucket, uploadId);
        Exchanges.empty(r.exchange(), 204);
    }

    void complete(S3Request r) throws IOException {
        String bucket = r.bucket();
        String key = r.key();
        buckets.require(bucket);
        String uploadId = r.param("uploadId");
        Upload upload;
        try {
            upload = upload(bucket, key, uploadId);
        } catch (S3Exception e) {
            String requested = "NoSuchUpload".equals(e.code()) ? CompleteRequest.read(r).etag() : null;
            if (requested == null || !committedAs(bucket, key, requested)) {
                throw e;
            }
            // a retry of a complete whose answer was lost after it committed and removed the upload: the key holds
            // exactly the parts named (the ETag is their MD5s'), so completing again returns it, as S3 does
            completed(r, bucket, key, requested);
            return;
        }
        CompleteRequest request = CompleteRequest.read(r);
        List<Element> named = request.parts();
        String requested = request.etag();
        if (upload.completing() && committedAs(bucket, key, requested)) {
            removeUpload(bucket, uploadId); // a retry of a commit whose clean-up failed: some receipts may be gone
            completed(r, bucket, key, requested);
            return;
        }
        Map<Integer, VersionInfo> stored = parts(bucket, uploadId);
        List<Integer> order = new ArrayList<>();
        List<UploadedPart> chosen = new ArrayList<>();
        for (Element p : named) {
            int n = partNumber(S3Xml.text(p, "PartNumber"));
            String etag = S3Xml.text(p, "ETag");
            if (!order.isEmpty() && n <= order.get(order.size() - 1)) {
                throw new S3Exception(400, "InvalidPartOrder", "The list of parts was not in ascending order");
            }
            Optional<UploadedPart> part = stored.containsKey(n) ? receipt(bucket, uploadId, n, etag)
                    : Optional.empty();
            if (part.isEmpty() && storedRecord(bucket, uploadId).isEmpty()) {
                throw noSuchUpload(uploadId); // aborted meanwhile: its parts went with it
            }
            if (part.isEmpty()) {
                throw new S3Exception(400, "InvalidPart", "One or more of the specified parts could not be found"
                        + " or its ETag did not match: part " + n);
            }
            order.add(n);
            chosen.add(part.get());
        }
        for (int i = 0; i < chosen.size() - 1; i++) {
            if (chosen.get(i).size() < MIN_PART) {
                throw new S3Exception(400, "EntityTooSmall", "Your proposed upload is smaller than the minimum"
                        + " allowed size: part " + order.get(i) + " is " + chosen.get(i).size() + " bytes; every"
                        + " part but the last must be at least 5 MiB");
            }
        }
        String etag = requested; // every named ETag is its part's MD5 now
        Map<String, String> meta = new LinkedHashMap<>();
        upload.props().stringPropertyNames().stream().filter(n -> n.startsWith("meta."))
                .forEach(n -> meta.put(n.substring(5), upload.props().getProperty(n)));
        meta.put(ObjectMetadata.ETAG, etag);
        meta.put(ObjectMetadata.MTIME, Long.toString(System.currentTimeMillis()));
        boolean conditional = r.header("if-match") != null || r.header("if-none-match") != null;
        PutOptions options;
        try {
            options = WriteConditions.forPut(r, hybris, bucket, key).withMetadata(meta); // 412 before the 200
            if (r.header("if-none-match") != null
                    && Failures.translate(() -> hybris.describe(bucket, key)).isPresent()) {
                throw ObjectOperations.preconditionFailed("If-None-Match"); // checked now too: the status is free
            }
        } catch (S3Exception e) {
            if (!upload.completing() || !"PreconditionFailed".equals(e.code()) || !committedAs(bucket, key, etag)) {
                throw e;
            }
            // a retry of this very completion, whose first attempt committed (its answer was lost): the object the
            // precondition now sees is this upload's, and completing again returns it
            options = PutOptions.none().withMetadata(meta);
        }
        PutOptions completeWith = options;
        markCompleting(bucket, uploadId, upload, etag);

        // 200 now, spaces while the upload commits, then the result (or an error) as the body
        r.exchange().getResponseHeaders().set("Content-Type", "application/xml");
        r.exchange().sendResponseHeaders(200, 0);
        OutputStream out = r.exchange().getResponseBody();
        Object lock = new Object();
        boolean[] spaced = {false};
        ScheduledFuture<?> spaces = keepAlive.scheduleAtFixedRate(() -> {
            synchronized (lock) {
                try {
                    out.write(' ');
                    out.flush();
                    spaced[0] = true;
                } catch (IOException e) {
                    // the client left; the commit goes on and completes the upload
                }
            }
        }, 5, 5, TimeUnit.SECONDS);
        java.util.function.Supplier<String> body;
        try {
            VersionInfo done = Failures.translate(() -> {
                try {
                    return parts.complete(upload.core(), chosen, completeWith);
                } catch (NotEnoughCloudsException e) {
                    if (!committedAs(bucket, key, etag)) { // the manifest was not stored: nothing committed
                        unmarkCompleting(bucket, uploadId);
                    }
                    throw e;
                } catch (UploadExpiredException e) {
                    unmarkCompleting(bucket, uploadId); // nothing committed: abortable (its parts are swept)
                    throw new S3Exception(404, "NoSuchUpload", "The multipart upload was idle too long and its"
                            + " parts were removed; abort it and upload the object again (" + e.getMessage() + ")",
                            e);
                } catch (PreconditionFailedException e) {
                    unmarkCompleting(bucket, uploadId); // nothing committed: the upload stays, abortable
                    if (conditional) {
                        throw ObjectOperations.preconditionFailed(r.header("if-match") != null ? "If-Match"
                                : "If-None-Match");
                    }
                    throw new S3Exception(409, "OperationAborted", "A multipart upload of this key started later"
                            + " completed first; this one cannot complete: abort it (" + e.getMessage() + ")", e);
                }
            });
            removeUpload(bucket, uploadId);
            body = () -> root(spaced, "CompleteMultipartUploadResult").element("Location", "/" + bucket + "/" + key)
                    .element("Bucket", bucket).element("Key", key)
                    .element("ETag", ObjectMetadata.quoted(ObjectMetadata.etag(done))).toString();
        } catch (RuntimeException e) {
            // the response is already 200: the error goes in its body, as S3 does
            S3Exception s3 = e instanceof S3Exception x ? x : e instanceof HybrisException h ? Failures.toS3(h)
                    : new S3Exception(500, "InternalError", "We encountered an internal error. Please try again.");
            body = () -> root(spaced, "Error").element("Code", s3.code()).element("Message", s3.getMessage())
                    .toString().replace(" xmlns=\"" + S3Xml.NS + "\"", "");
        } finally {
            spaces.cancel(false);
        }
        synchronized (lock) { // built here: a space written after the body was built would precede its declaration
            out.write(body.get().getBytes(StandardCharsets.UTF_8));
            out.close();
        }
    }

    /** Answers a complete that found its upload committed as {@code etag} by an earlier attempt. */
    private static void completed(S3Request r, String bucket, String key, String etag) throws IOException {
        Exchanges.xml(r.exchange(), 200, S3Xml.document("CompleteMultipartUploadResult")
                .element("Location", "/" + bucket + "/" + key).element("Bucket", bucket).element("Key", key)
                .element("ETag", ObjectMetadata.quoted(etag)).toString());
    }

    /** Deletes an upload's receipts, its record, then receipts that landed meanwhile (later ones remove theirs). */
    private void removeUpload(String bucket, String uploadId) {
        sightings.forget(record(bucket, uploadId));
        removeReceipts(bucket, uploadId);
        hybris.delete(Buckets.UPLOADS, record(bucket, uploadId));
        removeReceipts(bucket, uploadId);
    }

    private void removeReceipts(String bucket, String uploadId) {
        for (int n : parts(bucket, uploadId).keySet()) {
            hybris.delete(Buckets.UPLOADS, part(bucket, uploadId, n));
        }
    }

    /** Part {@code n}'s receipt, if its record is there and its ETag is {@code etag}. */
    private Optional<UploadedPart> receipt(String bucket, String uploadId, int n, String etag) {
        if (etag == null) {
            return Optional.empty();
        }
        return Failures.translate(() -> hybris.get(Buckets.UPLOADS, part(bucket, uploadId, n), ByteRange.all()))
                .flatMap(stream -> {
                    try (ValueStream in = stream) {
                        byte[] bytes = in.readAllBytes();
                        return ObjectMetadata.unquoted(etag).equals(ObjectMetadata.etag(in.version()))
                                ? Optional.of(UploadedPart.fromBytes(bytes)) : Optional.empty();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /**
     * Marks the record {@code completing} with a conditional write, so that an abort from now on fails instead of
     * deleting the parts; a record already marked (a retried complete) stays so.
     */
    private void markCompleting(String bucket, String uploadId, Upload upload, String parts) {
        Upload current = upload;
        // a mark this gateway has seen unchanged for the stale period was left by a stopped gateway: taken over
        for (int attempt = 0; !current.completing() || sightings.stale(record(bucket, uploadId), current.version());
             attempt++) {
            current.props().setProperty(STATE, COMPLETING);
            current.props().setProperty(PARTS, String.valueOf(parts));
            current.props().setProperty(SINCE, Long.toString(System.currentTimeMillis()));
            byte[] marked = bytesOf(current.props());
            String version = current.version();
            boolean done = Failures.translate(() -> {
                try {
                    hybris.put(Buckets.UPLOADS, record(bucket, uploadId), marked, PutOptions.ifMatch(version));
                    return true;
                } catch (PreconditionFailedException e) {
                    return false;
                }
            });
            if (done) {
                return;
            }
            current = storedRecord(bucket, uploadId).orElseThrow(() -> noSuchUpload(uploadId));
            if (attempt >= 3) {
                throw new S3Exception(409, "OperationAborted", "A conflicting operation is in progress on this"
                        + " multipart upload; try again");
            }
        }
        if (!String.valueOf(parts).equals(current.props().getProperty(PARTS, String.valueOf(parts)))) {
            // two completes naming different parts would store two manifests under one version's name, and the
            // one stored last could replace the committed one's
            throw new S3Exception(409, "OperationAborted", "Another CompleteMultipartUpload of this upload, naming"
                    + " other parts, is in progress; retry with the same parts, or once it has ended");
        }
    }

    /** Whether the key's current object is a multipart object of ETag {@code etag} (these parts, committed). */
    private boolean committedAs(String bucket, String key, String etag) {
        return etag != null && Failures.translate(() -> hybris.describe(bucket, key))
                .map(v -> etag.equals(ObjectMetadata.etag(v))).orElse(false);
    }

    /**
     * Returns the record of an upload whose complete failed without committing to {@code open}, so the upload can be
     * aborted (or completed again) and is listed; a complete whose outcome is unknown leaves it completing, which a
     * retried complete resolves. Best effort: a record changed meanwhile is left as it is.
     */
    private void unmarkCompleting(String bucket, String uploadId) {
        Optional<Upload> current = storedRecord(bucket, uploadId);
        if (current.isEmpty() || !current.get().completing()) {
            return;
        }
        current.get().props().setProperty(STATE, OPEN);
        byte[] reopened = bytesOf(current.get().props());
        try {
            hybris.put(Buckets.UPLOADS, record(bucket, uploadId), reopened, PutOptions.ifMatch(current.get().version()));
        } catch (PreconditionFailedException e) {
            // another complete or abort got there first
        }
    }

    private static S3Xml root(boolean[] spaced, String name) {
        return spaced[0] ? S3Xml.documentWithoutDeclaration(name) : S3Xml.document(name);
    }
}
