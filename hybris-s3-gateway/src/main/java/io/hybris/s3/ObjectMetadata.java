/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import com.sun.net.httpserver.Headers;
import io.hybris.VersionInfo;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How an object's S3 metadata is kept as Hybris application metadata (names {@code [a-z0-9][a-z0-9._-]}, 2 KiB in
 * all — S3's own limit for user metadata): {@code s3.etag} (the ETag, MD5 hex or the multipart form),
 * {@code s3.mtime} (Last-Modified, epoch milliseconds), the content headers ({@code s3.ct} Content-Type,
 * {@code s3.ce} Content-Encoding, {@code s3.cd} Content-Disposition, {@code s3.cc} Cache-Control, {@code s3.cl}
 * Content-Language, {@code s3.ex} Expires) and each {@code x-amz-meta-<name>} as {@code m.<name>}.
 */
final class ObjectMetadata {
    static final String ETAG = "s3.etag";
    static final String MTIME = "s3.mtime";
    private static final Map<String, String> CONTENT_HEADERS = Map.of(
            "content-type", "s3.ct", "content-encoding", "s3.ce", "content-disposition", "s3.cd",
            "cache-control", "s3.cc", "content-language", "s3.cl", "expires", "s3.ex");
    private static final Pattern USER_NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,61}");
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);
    private static final String USER_PREFIX = "x-amz-meta-";
    /**
     * The most bytes (UTF-8, names and values) of metadata a request may carry: Hybris's limit less the room the
     * ETag (a multipart one of 10,000 parts: 38 characters) and the modification time (13 digits) take when the
     * object is committed, so metadata accepted up front never fails the commit after the body was stored.
     */
    static final int MAX_REQUEST_BYTES = io.hybris.PutOptions.MAX_METADATA_BYTES - (ETAG.length() + 38)
            - (MTIME.length() + 13);

    private ObjectMetadata() {
    }

    /** The content headers and user metadata of a PUT, CopyObject (REPLACE) or CreateMultipartUpload. */
    static Map<String, String> fromRequest(S3Request r) {
        Map<String, String> meta = new LinkedHashMap<>();
        CONTENT_HEADERS.forEach((header, name) -> {
            String v = r.header(header);
            if (v != null && !(header.equals("content-encoding") && v.trim().equalsIgnoreCase("aws-chunked"))) {
                meta.put(name, header.equals("content-encoding") ? withoutAwsChunked(v) : v);
            }
        });
        if (!meta.containsKey("s3.ct")) {
            meta.put("s3.ct", "binary/octet-stream");
        }
        for (Map.Entry<String, List<String>> h : r.headers().entrySet()) {
            if (h.getKey().startsWith(USER_PREFIX)) {
                String name = h.getKey().substring(USER_PREFIX.length());
                if (!USER_NAME.matcher(name).matches()) {
                    throw S3Exception.invalidArgument("user metadata header " + h.getKey() + " cannot be stored: its"
                            + " name must be 1-62 characters of a-z, 0-9, '.', '_', '-'");
                }
                meta.put("m." + name, String.join(",", h.getValue()));
            }
        }
        int bytes = meta.entrySet().stream().mapToInt(e -> e.getKey().length()
                + e.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8).length).sum();
        if (bytes > MAX_REQUEST_BYTES) {
            throw new S3Exception(400, "MetadataTooLarge", "Your metadata headers exceed the maximum allowed"
                    + " metadata size (about 2 KiB with the content headers)");
        }
        return meta;
    }

    private static String withoutAwsChunked(String v) {
        return String.join(",", java.util.Arrays.stream(v.split(",")).map(String::trim)
                .filter(s -> !s.equalsIgnoreCase("aws-chunked")).toList());
    }

    /** The object's metadata without the gateway's own ETag and time (what a COPY directive carries over). */
    static Map<String, String> userAndContent(Map<String, String> meta) {
        Map<String, String> out = new LinkedHashMap<>(meta);
        out.remove(ETAG);
        out.remove(MTIME);
        return out;
    }

    static String etag(VersionInfo v) {
        return v.metadata().getOrDefault(ETAG, v.sha256Hex().isEmpty() ? "" : v.sha256Hex().substring(0, 32));
    }

    static long lastModified(VersionInfo v) {
        try {
            return Long.parseLong(v.metadata().getOrDefault(MTIME, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static String httpDate(long epochMillis) {
        return HTTP_DATE.format(Instant.ofEpochMilli(epochMillis));
    }

    /** Sets the response headers of GET and HEAD: ETag, Last-Modified, the content headers, x-amz-meta-*. */
    static void toResponse(VersionInfo v, Headers h) {
        h.set("ETag", quoted(etag(v)));
        h.set("Last-Modified", httpDate(lastModified(v)));
        CONTENT_HEADERS.forEach((header, name) -> {
            String value = v.metadata().get(name);
            if (value != null && !value.isEmpty()) {
                h.set(canonical(header), value);
            }
        });
        v.metadata().forEach((name, value) -> {
            if (name.startsWith("m.")) {
                h.set(USER_PREFIX + name.substring(2), value);
            }
        });
    }

    static String quoted(String etag) {
        return "\"" + etag + "\"";
    }

    /** An ETag as a client sends it (quoted or not, possibly weak) without quotes. */
    static String unquoted(String etag) {
        String e = etag.trim();
        if (e.startsWith("W/")) {
            e = e.substring(2);
        }
        return e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"") ? e.substring(1, e.length() - 1) : e;
    }

    private static String canonical(String header) {
        StringBuilder sb = new StringBuilder(header.length());
        boolean up = true;
        for (char c : header.toCharArray()) {
            sb.append(up ? Character.toUpperCase(c) : c);
            up = c == '-';
        }
        return sb.toString().toLowerCase(Locale.ROOT).equals(header) ? sb.toString() : header;
    }
}
