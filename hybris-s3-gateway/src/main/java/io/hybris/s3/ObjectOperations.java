/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import com.sun.net.httpserver.HttpExchange;
import io.hybris.ByteRange;
import io.hybris.ConcurrentOverwriteException;
import io.hybris.Hybris;
import io.hybris.InvalidRangeException;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.ValueSourceException;
import io.hybris.ValueStream;
import io.hybris.ValueStreamException;
import io.hybris.VersionInfo;

import java.io.IOException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * PutObject, GetObject (with {@code Range} and the conditional headers), HeadObject, DeleteObject and CopyObject
 * over one Hybris client. A PUT streams the verified body into {@code Hybris.put} with the object's metadata; its
 * ETag (the MD5 of the bytes) is computed on the way and committed with the version
 * ({@code withMetadataAfterRead}), so a body that fails a check commits nothing.
 */
final class ObjectOperations {
    /** One byte range: first-last, first- or -suffix, in decimal digits. */
    private static final java.util.regex.Pattern RANGE_SPEC = java.util.regex.Pattern.compile("[0-9]+-[0-9]*|-[0-9]+");
    /** How many times a CopyObject reads its source again when it was overwritten while being read. */
    private static final int COPY_ATTEMPTS = 3;
    private final Hybris hybris;
    private final Buckets buckets;

    ObjectOperations(Hybris hybris, Buckets buckets) {
        this.hybris = hybris;
        this.buckets = buckets;
    }

    void put(S3Request r, Authenticated auth) throws IOException {
        String bucket = r.bucket();
        String key = r.key();
        Keys.check(key);
        buckets.require(bucket);
        PutOptions options = WriteConditions.forPut(r, hybris, bucket, key).withMetadata(ObjectMetadata.fromRequest(r));
        Payloads.Payload payload = Payloads.open(r, auth);
        VersionInfo v = Failures.translate(() -> hybris.put(bucket, key, payload.in(), payload.length(),
                options.withMetadataAfterRead(() -> Map.of(ObjectMetadata.ETAG, payload.in().md5Hex(),
                        ObjectMetadata.MTIME, Long.toString(System.currentTimeMillis())))));
        HttpExchange x = r.exchange();
        x.getResponseHeaders().set("ETag", ObjectMetadata.quoted(ObjectMetadata.etag(v)));
        Exchanges.empty(x, 200);
    }

    void get(S3Request r, boolean head) throws IOException {
        String bucket = r.bucket();
        String key = r.key();
        if (!Buckets.validName(bucket) || key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > Keys.MAX_BYTES) {
            buckets.require(bucket);
            throw S3Exception.noSuchKey(key);
        }
        String range = r.header("range");
        ByteRange byteRange = range == null ? null : parseRange(range);
        if (head && byteRange == null) {
            headFromMetadata(r, bucket, key);
            return;
        }
        String ifRange = byteRange == null ? null : r.header("if-range");
        Optional<ValueStream> opened;
        try {
            opened = open(bucket, key, byteRange);
        } catch (InvalidRangeException e) {
            // the preconditions come before the range (RFC 9110 13.2.2): 412 or 304 rather than 416
            Optional<VersionInfo> current = Failures.translate(() -> hybris.describe(bucket, key));
            if (current.isPresent() && conditions(r, current.get()) == 304) {
                objectHeaders(r, current.get());
                return;
            }
            if (current.isEmpty() || ifRange == null || ifRangeHolds(ifRange, current.get())) {
                r.exchange().getResponseHeaders().set("Content-Range", "bytes */" + e.valueLength());
                throw new S3Exception(416, "InvalidRange", "The requested range is not satisfiable: " + range);
            }
            opened = Optional.empty(); // the object changed since the client's If-Range: the whole of it (below)
        }
        if (ifRange != null && (opened.isEmpty() || !ifRangeHolds(ifRange, opened.get().version()))) {
            // If-Range (RFC 9110 13.1.5): a range of the version the client names, else the whole object, so a
            // resumed download never splices two versions
            if (opened.isPresent()) {
                opened.get().close();
            }
            if (head) {
                headFromMetadata(r, bucket, key);
                return;
            }
            byteRange = null;
            opened = open(bucket, key, null);
        }
        if (opened.isEmpty()) {
            buckets.require(bucket); // only now: a GET of an object that exists costs no bucket lookup
            throw S3Exception.noSuchKey(key);
        }
        ValueStream in = opened.get();
        try (in) {
            VersionInfo v = in.version();
            HttpExchange x = r.exchange();
            if (byteRange != null && v.size() == 0 && conditions(r, v) != 304) {
                // no range selects a byte of an empty object ("bytes=0-" included, which opened it whole); the
                // error carries none of the object's headers (its Content-Encoding would describe the XML)
                x.getResponseHeaders().set("Content-Range", "bytes */0");
                throw new S3Exception(416, "InvalidRange", "The requested range is not satisfiable: " + range);
            }
            if (!objectHeaders(r, v)) {
                return;
            }
            int status = 200;
            if (byteRange != null) {
                status = 206;
                x.getResponseHeaders().set("Content-Range", "bytes " + in.first() + "-"
                        + (in.first() + in.length() - 1) + "/" + v.size());
            }
            if (head) {
                Exchanges.head(x, status, in.length());
            } else {
                Exchanges.stream(x, status, in.length(), in);
            }
        }
    }

    /**
     * HeadObject without a range: the object's headers from its metadata alone (one metadata read), no cloud
     * request — clients such as rclone send one per file when they compare trees.
     */
    private void headFromMetadata(S3Request r, String bucket, String key) throws IOException {
        Optional<VersionInfo> found = Failures.translate(() -> hybris.describe(bucket, key));
        if (found.isEmpty()) {
            buckets.require(bucket);
            throw S3Exception.noSuchKey(key);
        }
        if (objectHeaders(r, found.get())) {
            Exchanges.head(r.exchange(), 200, found.get().size());
        }
    }

    /**
     * Sets the headers of object {@code v} on the response and checks the conditional request headers: false when
     * the answer is 304 Not Modified, which this has sent (a failed precondition throws 412).
     */
    private static boolean objectHeaders(S3Request r, VersionInfo v) throws IOException {
        HttpExchange x = r.exchange();
        int notModified = conditions(r, v);
        ObjectMetadata.toResponse(v, x.getResponseHeaders());
        x.getResponseHeaders().set("Accept-Ranges", "bytes");
        if (notModified == 304) {
            x.sendResponseHeaders(304, -1);
            x.getResponseBody().close();
            return false;
        }
        responseOverrides(r, x);
        return true;
    }

    /** The response-* query parameters of a GET (presigned downloads use them), S3's overrides. */
    private static void responseOverrides(S3Request r, HttpExchange x) {
        Map<String, String> overrides = Map.of("response-content-type", "Content-Type",
                "response-content-disposition", "Content-Disposition", "response-content-encoding",
                "Content-Encoding", "response-content-language", "Content-Language", "response-cache-control",
                "Cache-Control", "response-expires", "Expires");
        overrides.forEach((param, header) -> {
            String v = r.param(param);
            if (v != null) {
                x.getResponseHeaders().set(header, v);
            }
        });
    }

    /** The object, or the given range of it (null: whole). */
    private Optional<ValueStream> open(String bucket, String key, ByteRange range) throws IOException {
        return Failures.translate(() -> range == null ? hybris.getStream(bucket, key) : hybris.get(bucket, key, range));
    }

    /**
     * Whether an {@code If-Range} validator names version {@code v}: a strong entity-tag equal to its ETag (a weak
     * one never matches), or an HTTP-date equal to its Last-Modified second; anything else does not.
     */
    private static boolean ifRangeHolds(String header, VersionInfo v) {
        String h = header.trim();
        if (h.startsWith("W/") || h.startsWith("\"")) {
            return strongMatch(h, ObjectMetadata.etag(v));
        }
        long seconds = httpDateSeconds(h);
        return seconds != UNPARSABLE && seconds == ObjectMetadata.lastModified(v) / 1000;
    }

    /** Checks If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since: 304, or 0 to go on; 412 throws. */
    private static int conditions(S3Request r, VersionInfo v) {
        String etag = ObjectMetadata.etag(v);
        String ifMatch = r.header("if-match");
        String ifNoneMatch = r.header("if-none-match");
        long modifiedSeconds = ObjectMetadata.lastModified(v) / 1000;
        if (ifMatch != null && !matchesAny(ifMatch, etag, true)) {
            throw preconditionFailed("If-Match");
        }
        if (ifMatch == null && r.header("if-unmodified-since") != null
                && httpDateSeconds(r.header("if-unmodified-since")) != UNPARSABLE
                && modifiedSeconds > httpDateSeconds(r.header("if-unmodified-since"))) {
            throw preconditionFailed("If-Unmodified-Since");
        }
        if (ifNoneMatch != null) {
            return matchesAny(ifNoneMatch, etag, false) ? 304 : 0;
        }
        if (r.header("if-modified-since") != null
                && modifiedSeconds <= httpDateSeconds(r.header("if-modified-since"))) {
            return 304;
        }
        return 0;
    }

    /**
     * Whether a list of entity-tags names {@code etag}; with {@code strong} (If-Match, RFC 9110 8.8.3.2) a weak tag
     * never does, without (If-None-Match) it may.
     */
    private static boolean matchesAny(String header, String etag, boolean strong) {
        for (String candidate : header.split(",")) {
            String c = candidate.trim();
            if (c.equals("*") || (strong ? strongMatch(c, etag) : ObjectMetadata.unquoted(c).equals(etag))) {
                return true;
            }
        }
        return false;
    }

    /** RFC 9110's strong comparison of one entity-tag with {@code etag}: a weak tag never matches. */
    private static boolean strongMatch(String tag, String etag) {
        return !tag.startsWith("W/") && ObjectMetadata.unquoted(tag).equals(etag);
    }

    /** What {@link #httpDateSeconds} answers for a value that is not an HTTP-date (which HTTP says to ignore). */
    private static final long UNPARSABLE = Long.MIN_VALUE / 2;

    private static long httpDateSeconds(String date) {
        try {
            return ZonedDateTime.parse(date.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
        } catch (DateTimeParseException e) {
            return UNPARSABLE; // an unparsable date is ignored, as HTTP says
        }
    }

    static S3Exception preconditionFailed(String condition) {
        return new S3Exception(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not"
                + " hold (" + condition + ")");
    }

    /**
     * {@code bytes=a-b}, {@code bytes=a-}, {@code bytes=-n}; null (the whole object is served) for several ranges,
     * an unparsable header (numbers are digits only, RFC 9110), or a range whose last byte is before its first (as
     * S3 and HTTP do). A number too large for a long is past any end: as a first byte it selects nothing, as a last
     * byte or a suffix it reaches the end. A suffix of 0 bytes selects nothing either (416, as HTTP answers it).
     */
    static ByteRange parseRange(String header) {
        String h = header.trim();
        if (!h.startsWith("bytes=") || h.contains(",")) {
            return null;
        }
        String spec = h.substring("bytes=".length()).trim();
        if (!RANGE_SPEC.matcher(spec).matches()) {
            return null; // an unparsable Range is ignored (HTTP), and the whole object served
        }
        int dash = spec.indexOf('-');
        if (dash == 0) {
            long suffix = number(spec.substring(1));
            return suffix == 0 ? ByteRange.from(Long.MAX_VALUE) : ByteRange.suffix(suffix); // from MAX: no byte
        }
        long first = number(spec.substring(0, dash));
        String last = spec.substring(dash + 1);
        if (last.isEmpty()) {
            return ByteRange.from(first);
        }
        long end = number(last);
        return end < first ? null : ByteRange.of(first, end); // a range ending before it starts is ignored
    }

    /** Decimal digits as a long, {@link Long#MAX_VALUE} if they are more (past the end of any object). */
    private static long number(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE; // only digits reach here (RANGE_SPEC): too many of them
        }
    }

    /**
     * DeleteObject; with {@code If-Match}, only the version of that ETag ({@code *}: any), and a key with no value
     * is 404 NoSuchKey. The other conditional deletes ({@code x-amz-if-match-last-modified-time},
     * {@code x-amz-if-match-size}) are refused rather than ignored.
     */
    void delete(S3Request r) throws IOException {
        buckets.require(r.bucket());
        for (String h : new String[] {"x-amz-if-match-last-modified-time", "x-amz-if-match-size"}) {
            if (r.header(h) != null) {
                throw S3Exception.notImplemented("DeleteObject with " + h);
            }
        }
        String ifMatch = r.header("if-match");
        if (r.key().getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= Keys.MAX_BYTES) {
            try {
                Failures.translate(() -> hybris.delete(r.bucket(), r.key(),
                        WriteConditions.forDelete(hybris, r.bucket(), r.key(), ifMatch)));
            } catch (PreconditionFailedException e) {
                throw preconditionFailed("If-Match");
            }
        } else if (ifMatch != null) {
            throw S3Exception.noSuchKey(r.key());
        }
        Exchanges.empty(r.exchange(), 204);
    }

    /**
     * One attempt of a copy: the source's current version streamed into a put of the destination; null if the
     * source was overwritten while it was read and its remaining chunks are gone (nothing was stored: try again).
     */
    private VersionInfo copyOnce(S3Request r, String fromBucket, String fromKey, String directive) throws IOException {
        ValueStream in = Failures.translate(() -> hybris.getStream(fromBucket, fromKey))
                .orElseThrow(() -> S3Exception.noSuchKey(fromKey));
        try (in) {
            Map<String, String> meta = directive.equals("COPY")
                    ? ObjectMetadata.userAndContent(in.version().metadata()) : ObjectMetadata.fromRequest(r);
            VerifyingInputStream counted = new VerifyingInputStream(in, null, null, null, null, Map::of);
            PutOptions options = WriteConditions.forPut(r, hybris, r.bucket(), r.key()).withMetadata(meta)
                    .withMetadataAfterRead(() -> Map.of(ObjectMetadata.ETAG, counted.md5Hex(),
                            ObjectMetadata.MTIME, Long.toString(System.currentTimeMillis())));
            return Failures.translate(() -> {
                try {
                    return hybris.put(r.bucket(), r.key(), counted, in.length(), options);
                } catch (ValueSourceException e) {
                    if (e.getCause() instanceof ValueStreamException read
                            && read.getCause() instanceof ConcurrentOverwriteException) {
                        return null;
                    }
                    throw e;
                }
            });
        } catch (PreconditionFailedException e) {
            throw preconditionFailed(r.header("if-match") != null ? "If-Match" : "If-None-Match");
        }
    }

    void copy(S3Request r) throws IOException {
        String bucket = r.bucket();
        String key = r.key();
        Keys.check(key);
        buckets.require(bucket);
        for (String h : r.headers().keySet()) {
            if (h.startsWith("x-amz-copy-source-if") || h.equals("x-amz-copy-source-range")) {
                throw S3Exception.notImplemented("CopyObject with " + h);
            }
        }
        String source = S3Request.decode(r.header("x-amz-copy-source"));
        if (source.contains("?versionId=")) {
            throw S3Exception.notImplemented("copying a version (versionId)");
        }
        String s = source.startsWith("/") ? source.substring(1) : source;
        int slash = s.indexOf('/');
        if (slash <= 0 || slash == s.length() - 1) {
            throw S3Exception.invalidArgument("x-amz-copy-source must be <bucket>/<key>: " + source);
        }
        String fromBucket = s.substring(0, slash);
        String fromKey = s.substring(slash + 1);
        buckets.require(fromBucket);
        String directive = r.header("x-amz-metadata-directive") == null ? "COPY"
                : r.header("x-amz-metadata-directive").trim().toUpperCase(java.util.Locale.ROOT);
        if (!directive.equals("COPY") && !directive.equals("REPLACE")) {
            throw S3Exception.invalidArgument("x-amz-metadata-directive must be COPY or REPLACE");
        }
        if (fromBucket.equals(bucket) && fromKey.equals(key) && directive.equals("COPY")) {
            throw new S3Exception(400, "InvalidRequest", "This copy request is illegal because it is trying to copy"
                    + " an object to itself without changing the object's metadata");
        }
        VersionInfo copied = null;
        for (int attempt = 1; copied == null; attempt++) {
            if (attempt > COPY_ATTEMPTS) {
                throw new S3Exception(503, "SlowDown", "The source object kept being overwritten while it was copied"
                        + " (" + COPY_ATTEMPTS + " attempts); nothing was stored. Please try again");
            }
            copied = copyOnce(r, fromBucket, fromKey, directive);
        }
        Exchanges.xml(r.exchange(), 200, S3Xml.document("CopyObjectResult")
                .element("LastModified", S3Xml.time(ObjectMetadata.lastModified(copied)))
                .element("ETag", ObjectMetadata.quoted(ObjectMetadata.etag(copied))).toString());
    }
}
