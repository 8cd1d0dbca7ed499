/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.KeyPage;
import io.hybris.PutOptions;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import org.w3c.dom.Element;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.Iterator;
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
 * Multipart uploads. An upload is a record {@code <bucket>/<upload id>} in the gateway's uploads container (the
 * object key, the metadata and the start time) and one Hybris value per part, {@code <bucket>/<upload id>/<part
 * number>}, each stored (and verified, chunked if large) like any value, with its MD5 as its ETag. Complete checks
 * the parts named against those stored, then streams them in order into one {@code Hybris.put} of the object — one
 * commit, with S3's multipart ETag ({@code md5(part md5s)-n}) — and deletes the parts. While it runs, the response
 * (already 200) gets a space every few seconds, as S3 does, so clients do not time out. Abandoned uploads stay
 * until aborted (ListMultipartUploads finds them).
 */
final class MultipartUploads {
    static final long MIN_PART = 5L << 20;
    private static final int MAX_PARTS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Hybris hybris;
    private final Buckets buckets;
    private final ScheduledExecutorService keepAlive;

    MultipartUploads(Hybris hybris, Buckets buckets) {
        this.hybris = hybris;
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
        Properties p = new Properties();
        p.setProperty("key", r.key());
        p.setProperty("initiated", Long.toString(System.currentTimeMillis()));
        meta.forEach((k, v) -> p.setProperty("meta." + k, v));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.store(out, null);
        Failures.translate(() -> hybris.put(Buckets.UPLOADS, record(bucket, uploadId), out.toByteArray(),
                PutOptions.ifAbsent()));
        Exchanges.xml(r.exchange(), 200, S3Xml.document("InitiateMultipartUploadResult").element("Bucket", bucket)
                .element("Key", r.key()).element("UploadId", uploadId).toString());
    }

    /** The upload's record, checked against the request's key. */
    private Properties upload(String bucket, String key, String uploadId) {
        if (uploadId == null || !uploadId.matches("[0-9a-f]{32}")) {
            throw noSuchUpload(uploadId);
        }
        Properties p = storedRecord(bucket, uploadId).orElseThrow(() -> noSuchUpload(uploadId));
        if (!key.equals(p.getProperty("key"))) {
            throw noSuchUpload(uploadId);
        }
        return p;
    }

    /** The stored record of an upload, if it still exists. */
    private Optional<Properties> storedRecord(String bucket, String uploadId) {
        Optional<byte[]> stored = Failures.translate(() -> hybris.get(Buckets.UPLOADS, record(bucket, uploadId)));
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try {
            p.load(new ByteArrayInputStream(stored.get()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.of(p);
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
        upload(bucket, r.key(), uploadId);
        Payloads.Payload payload = Payloads.open(r, auth);
        VersionInfo v = Failures.translate(() -> hybris.put(Buckets.UPLOADS, part(bucket, uploadId, n),
                payload.in(), payload.length(), PutOptions.none().withMetadataAfterRead(() -> Map.of(
                        ObjectMetadata.ETAG, payload.in().md5Hex(),
                        ObjectMetadata.MTIME, Long.toString(System.currentTimeMillis())))));
        r.exchange().getResponseHeaders().set("ETag", ObjectMetadata.quoted(ObjectMetadata.etag(v)));
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
            KeyPage page = hybris.list(Buckets.UPLOADS, prefix, cursor, 1000);
            for (String k : page.keys()) {
                hybris.describe(Buckets.UPLOADS, k).ifPresent(v ->
                        out.put(Integer.parseInt(k.substring(prefix.length())), v));
            }
            cursor = page.nextCursor().orElse(null);
        } while (cursor != null);
        return out;
    }

    void listParts(S3Request r) throws IOException {
        String bucket = r.bucket();
        buckets.require(bucket);
        String uploadId = r.param("uploadId");
        upload(bucket, r.key(), uploadId);
        int marker = r.param("part-number-marker") == null ? 0 : partNumber(r.param("part-number-marker"));
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
                    .element("Size", e.getValue().size()).end();
        }
        Exchanges.xml(r.exchange(), 200, xml.toString());
    }

    void listUploads(S3Request r) throws IOException {
        String bucket = r.bucket();
        buckets.require(bucket);
        S3Xml xml = S3Xml.document("ListMultipartUploadsResult").element("Bucket", bucket)
                .element("KeyMarker", "").element("UploadIdMarker", "").element("MaxUploads", 1000)
                .element("IsTruncated", false);
        String prefix = bucket + "/";
        String cursor = null;
        do {
            KeyPage page = hybris.list(Buckets.UPLOADS, prefix, cursor, 1000);
            for (String k : page.keys()) {
                String rest = k.substring(prefix.length());
                if (rest.contains("/")) {
                    continue; // a part
                }
                Optional<Properties> found = storedRecord(bucket, rest);
                if (found.isEmpty()) {
                    continue; // completed or aborted since the listing
                }
                Properties p = found.get();
                xml.start("Upload").element("Key", p.getProperty("key")).element("UploadId", rest)
                        .element("StorageClass", "STANDARD")
                        .element("Initiated", S3Xml.time(Long.parseLong(p.getProperty("initiated", "0")))).end();
            }
            cursor = page.nextCursor().orElse(null);
        } while (cursor != null);
        Exchanges.xml(r.exchange(), 200, xml.toString());
    }

    void abort(S3Request r) throws IOException {
        String bucket = r.bucket();
        buckets.require(bucket);
        String uploadId = r.param("uploadId");
        upload(bucket, r.key(), uploadId);
        for (int n : parts(bucket, uploadId).keySet()) {
            hybris.delete(Buckets.UPLOADS, part(bucket, uploadId, n));
        }
        hybris.delete(Buckets.UPLOADS, record(bucket, uploadId));
        Exchanges.empty(r.exchange(), 204);
    }

    void complete(S3Request r) throws IOException {
        String bucket = r.bucket();
        String key = r.key();
        buckets.require(bucket);
        String uploadId = r.param("uploadId");
        Properties record = upload(bucket, key, uploadId);
        Element root = S3Xml.parse(r.readSmallBody(S3Xml.MAX_REQUEST_BYTES), "CompleteMultipartUpload");
        List<Element> named = S3Xml.children(root, "Part");
        if (named.isEmpty()) {
            throw S3Exception.malformedXml("CompleteMultipartUpload names no Part");
        }
        Map<Integer, VersionInfo> stored = parts(bucket, uploadId);
        List<Integer> order = new ArrayList<>();
        List<VersionInfo> versions = new ArrayList<>();
        long total = 0;
        MessageDigest md5s = md5();
        for (Element p : named) {
            int n = partNumber(S3Xml.text(p, "PartNumber"));
            String etag = S3Xml.text(p, "ETag");
            if (!order.isEmpty() && n <= order.get(order.size() - 1)) {
                throw new S3Exception(400, "InvalidPartOrder", "The list of parts was not in ascending order");
            }
            VersionInfo v = stored.get(n);
            if (v == null || etag == null || !ObjectMetadata.unquoted(etag).equals(ObjectMetadata.etag(v))) {
                throw new S3Exception(400, "InvalidPart", "One or more of the specified parts could not be found"
                        + " or its ETag did not match: part " + n);
            }
            order.add(n);
            versions.add(v);
            total += v.size();
            md5s.update(HexFormat.of().parseHex(ObjectMetadata.etag(v)));
        }
        for (int i = 0; i < versions.size() - 1; i++) {
            if (versions.get(i).size() < MIN_PART) {
                throw new S3Exception(400, "EntityTooSmall", "Your proposed upload is smaller than the minimum"
                        + " allowed size: part " + order.get(i) + " is " + versions.get(i).size() + " bytes; every"
                        + " part but the last must be at least 5 MiB");
            }
        }
        String etag = HexFormat.of().formatHex(md5s.digest()) + "-" + order.size();
        Map<String, String> meta = new LinkedHashMap<>();
        record.stringPropertyNames().stream().filter(n -> n.startsWith("meta."))
                .forEach(n -> meta.put(n.substring(5), record.getProperty(n)));
        meta.put(ObjectMetadata.ETAG, etag);

        // 200 now, spaces while the parts are joined, then the result (or an error) as the body
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
                    // the client left; the put goes on and completes the upload
                }
            }
        }, 5, 5, TimeUnit.SECONDS);
        String body;
        try {
            long length = total;
            VersionInfo done = Failures.translate(() -> hybris.put(bucket, key, joined(bucket, uploadId, order),
                    length, PutOptions.none().withMetadata(meta).withMetadataAfterRead(() -> Map.of(
                            ObjectMetadata.MTIME, Long.toString(System.currentTimeMillis())))));
            for (int n : stored.keySet()) {
                hybris.delete(Buckets.UPLOADS, part(bucket, uploadId, n));
            }
            hybris.delete(Buckets.UPLOADS, record(bucket, uploadId));
            body = root(spaced, "CompleteMultipartUploadResult").element("Location", "/" + bucket + "/" + key)
                    .element("Bucket", bucket).element("Key", key)
                    .element("ETag", ObjectMetadata.quoted(ObjectMetadata.etag(done))).toString();
        } catch (RuntimeException e) {
            // the response is already 200: the error goes in its body, as S3 does
            S3Exception s3 = e instanceof S3Exception x ? x : e instanceof HybrisException h ? Failures.toS3(h)
                    : new S3Exception(500, "InternalError", "We encountered an internal error. Please try again.");
            body = root(spaced, "Error").element("Code", s3.code()).element("Message", s3.getMessage()).toString()
                    .replace(" xmlns=\"" + S3Xml.NS + "\"", "");
        } finally {
            spaces.cancel(false);
        }
        synchronized (lock) {
            out.write(body.getBytes(StandardCharsets.UTF_8));
            out.close();
        }
    }

    private static S3Xml root(boolean[] spaced, String name) {
        return spaced[0] ? S3Xml.documentWithoutDeclaration(name) : S3Xml.document(name);
    }

    /** The parts' bytes in order, each opened (and hash-checked by Hybris) when the previous one ends. */
    private InputStream joined(String bucket, String uploadId, List<Integer> order) {
        Iterator<Integer> it = order.iterator();
        return new SequenceInputStream(new Enumeration<InputStream>() {
            @Override
            public boolean hasMoreElements() {
                return it.hasNext();
            }

            @Override
            public InputStream nextElement() {
                int n = it.next();
                ValueStream s = hybris.getStream(Buckets.UPLOADS, part(bucket, uploadId, n))
                        .orElseThrow(() -> new UncheckedIOException(new IOException("part " + n + " vanished")));
                return s;
            }
        });
    }

    private static MessageDigest md5() {
        return SigV4.digest("MD5");
    }
}
