/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.KeyPage;
import io.hybris.VersionInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * ListObjects (V1) and ListObjectsV2: prefix, delimiter (common prefixes), max-keys, marker / start-after /
 * continuation-token, encoding-type=url. S3 lists keys in UTF-8 byte order, Hybris in the order of its encoded
 * keys, which differs where a key holds characters it escapes: so a page is cut from the bucket's keys under the
 * prefix sorted in S3's order — every key under the prefix is read per request (docs/s3-gateway.md, limits).
 * Each listed object's size, ETag and time come from its metadata.
 */
final class Listings {
    static final int MAX_KEYS = 1000;
    private static final Comparator<String> UTF8 = (a, b) -> Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private final Hybris hybris;
    private final Buckets buckets;

    Listings(Hybris hybris, Buckets buckets) {
        this.hybris = hybris;
        this.buckets = buckets;
    }

    /** One listed page: objects, common prefixes, and where the next page starts (null: no more). */
    private record Page(List<String> keys, List<String> prefixes, String next) {
    }

    void list(S3Request r, boolean v2) throws IOException {
        String bucket = r.bucket();
        buckets.require(bucket);
        String prefix = r.param("prefix") == null ? "" : r.param("prefix");
        String delimiter = r.param("delimiter") == null || r.param("delimiter").isEmpty() ? null
                : r.param("delimiter");
        int maxKeys = maxKeys(r.param("max-keys"));
        boolean url = "url".equals(r.param("encoding-type"));
        if (r.param("encoding-type") != null && !url) {
            throw S3Exception.invalidArgument("Invalid Encoding Method specified in Request: "
                    + r.param("encoding-type"));
        }
        String after;
        if (v2) {
            String token = r.param("continuation-token");
            after = token != null ? decodeToken(token) : r.param("start-after");
        } else {
            after = r.param("marker");
        }
        Page page = page(bucket, prefix, delimiter, after, maxKeys);
        S3Xml xml = S3Xml.document("ListBucketResult").element("Name", bucket)
                .element("Prefix", enc(prefix, url));
        if (v2) {
            if (r.param("continuation-token") != null) {
                xml.element("ContinuationToken", r.param("continuation-token"));
            }
            if (r.param("start-after") != null) {
                xml.element("StartAfter", enc(r.param("start-after"), url));
            }
            xml.element("KeyCount", page.keys().size() + page.prefixes().size());
        } else {
            xml.element("Marker", enc(after == null ? "" : after, url));
        }
        xml.element("MaxKeys", maxKeys);
        if (delimiter != null) {
            xml.element("Delimiter", enc(delimiter, url));
        }
        if (url) {
            xml.element("EncodingType", "url");
        }
        xml.element("IsTruncated", page.next() != null);
        if (page.next() != null) {
            if (v2) {
                xml.element("NextContinuationToken", encodeToken(page.next()));
            } else if (delimiter != null) {
                xml.element("NextMarker", enc(page.next(), url));
            }
        }
        for (String key : page.keys()) {
            Optional<VersionInfo> v = hybris.describe(bucket, key);
            if (v.isEmpty()) {
                continue; // deleted since it was listed
            }
            xml.start("Contents").element("Key", enc(key, url))
                    .element("LastModified", S3Xml.time(ObjectMetadata.lastModified(v.get())))
                    .element("ETag", ObjectMetadata.quoted(ObjectMetadata.etag(v.get())))
                    .element("Size", v.get().size()).element("StorageClass", "STANDARD").end();
        }
        for (String p : page.prefixes()) {
            xml.start("CommonPrefixes").element("Prefix", enc(p, url)).end();
        }
        Exchanges.xml(r.exchange(), 200, xml.toString());
    }

    private Page page(String bucket, String prefix, String delimiter, String after, int maxKeys) {
        List<String> all = new ArrayList<>();
        String hybrisPrefix = prefix.isEmpty() || !storable(prefix) ? "" : prefix;
        String cursor = null;
        do {
            KeyPage p = hybris.list(bucket, hybrisPrefix, cursor, 1000);
            for (String k : p.keys()) {
                if (k.startsWith(prefix)) {
                    all.add(k);
                }
            }
            cursor = p.nextCursor().orElse(null);
        } while (cursor != null);
        all.sort(UTF8);
        List<String> keys = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String last = null;
        for (String k : all) {
            if (after != null && UTF8.compare(k, after) <= 0) {
                continue;
            }
            String group = null;
            if (delimiter != null) {
                int at = k.indexOf(delimiter, prefix.length());
                if (at >= 0) {
                    group = k.substring(0, at + delimiter.length());
                }
            }
            if (group != null && group.equals(prefixes.isEmpty() ? null : prefixes.get(prefixes.size() - 1))) {
                continue; // same common prefix as the previous key
            }
            if (group != null && after != null && UTF8.compare(group, after) <= 0) {
                continue; // the page before ended with this common prefix
            }
            if (keys.size() + prefixes.size() == maxKeys) {
                return new Page(keys, prefixes, last);
            }
            if (group != null) {
                prefixes.add(group);
                last = group;
            } else {
                keys.add(k);
                last = k;
            }
        }
        return new Page(keys, prefixes, null);
    }

    private static boolean storable(String prefix) {
        try {
            Keys.check(prefix);
            return true;
        } catch (S3Exception e) {
            return false;
        }
    }

    private static int maxKeys(String v) {
        if (v == null) {
            return MAX_KEYS;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return Math.min(n, MAX_KEYS);
        } catch (NumberFormatException e) {
            throw S3Exception.invalidArgument("max-keys must be a non-negative integer: " + v);
        }
    }

    private static String enc(String s, boolean url) {
        return url ? S3Request.uriEncode(s, true) : s;
    }

    private static String encodeToken(String key) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    private static String decodeToken(String token) {
        try {
            return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw S3Exception.invalidArgument("The continuation token provided is incorrect");
        }
    }
}
