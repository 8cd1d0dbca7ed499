/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.DescribedKey;
import io.hybris.DescribedKeyPage;
import io.hybris.VersionInfo;
import io.hybris.spi.KeyEncoding;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * ListObjects (V1) and ListObjectsV2: prefix, delimiter (common prefixes), max-keys, marker / start-after /
 * continuation-token, encoding-type=url. S3 lists keys in UTF-8 byte order, Hybris in the order of its encoded
 * keys, which differs where a key holds characters it escapes: so a page is cut from the bucket's keys under the
 * prefix in S3's order — every key under the prefix is listed per request (docs/s3-gateway.md, limits), keeping
 * only the page's entries. Each listed object's size, ETag and time come from the metadata the listing returned
 * with its key ({@link Hybris#listDescribed}), not from a read per key.
 */
final class Listings {
    static final int MAX_KEYS = 1000;

    private final Hybris hybris;
    private final Buckets buckets;

    Listings(Hybris hybris, Buckets buckets) {
        this.hybris = hybris;
        this.buckets = buckets;
    }

    /** One listed page: objects with their versions, common prefixes, and where the next page starts (null: none). */
    private record Page(List<DescribedKey> keys, List<String> prefixes, String next) {
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
        for (DescribedKey object : page.keys()) {
            VersionInfo v = object.version();
            xml.start("Contents").element("Key", enc(object.key(), url))
                    .element("LastModified", S3Xml.time(ObjectMetadata.lastModified(v)))
                    .element("ETag", ObjectMetadata.quoted(ObjectMetadata.etag(v)))
                    .element("Size", v.size()).element("StorageClass", "STANDARD").end();
        }
        for (String p : page.prefixes()) {
            xml.start("CommonPrefixes").element("Prefix", enc(p, url)).end();
        }
        Exchanges.xml(r.exchange(), 200, xml.toString());
    }

    /**
     * The first {@code maxKeys} entries (keys, and common prefixes when a delimiter groups keys) after
     * {@code after} in S3's order, from one pass over the bucket's keys under the prefix: only the first
     * {@code maxKeys + 1} entries seen so far are kept (the extra one says whether the listing is truncated), so a
     * request holds at most 1,001 entries however large the bucket is. Each key's version comes from the listing.
     */
    private Page page(String bucket, String prefix, String delimiter, String after, int maxKeys) {
        if (maxKeys == 0) {
            return new Page(List.of(), List.of(), null);
        }
        TreeMap<String, DescribedKey> first = new TreeMap<>(Listings::compareUtf8); // a common prefix maps to null
        String hybrisPrefix = prefix.isEmpty() || !storable(prefix) ? "" : prefix;
        String cursor = null;
        int batch = Math.min(1000, maxKeys + 2); // a small page often ends the scan (see nothingAfterSortsBefore)
        String cutoff = null; // the entry past the page once it is full, and the scan's bound for it
        String bound = null;
        do {
            DescribedKeyPage p = hybris.listDescribed(bucket, hybrisPrefix, cursor, batch);
            batch = 1000;
            for (DescribedKey object : p.keys()) {
                String k = object.key();
                if (first.size() > maxKeys) {
                    if (!first.lastKey().equals(cutoff)) {
                        cutoff = first.lastKey();
                        bound = scanBound(cutoff, prefix);
                    }
                    if (pastBound(k, bound)) {
                        return page(first, maxKeys);
                    }
                }
                if (!k.startsWith(prefix) || after != null && compareUtf8(k, after) <= 0) {
                    continue;
                }
                String group = null;
                if (delimiter != null) {
                    int at = k.indexOf(delimiter, prefix.length());
                    if (at >= 0) {
                        group = k.substring(0, at + delimiter.length());
                    }
                }
                if (group != null && after != null && compareUtf8(group, after) <= 0) {
                    continue; // the page before ended with this common prefix
                }
                String entry = group != null ? group : k;
                if (first.size() > maxKeys && compareUtf8(entry, first.lastKey()) >= 0) {
                    continue; // after the page and the one entry that says it is truncated
                }
                if (group != null) {
                    first.putIfAbsent(group, null);
                } else {
                    first.put(k, object);
                }
                if (first.size() > maxKeys + 1) {
                    first.pollLastEntry();
                }
            }
            cursor = p.nextCursor().orElse(null);
        } while (cursor != null);
        return page(first, maxKeys);
    }

    /** The page of the first {@code maxKeys} of {@code first}, truncated if it holds one more. */
    private static Page page(TreeMap<String, DescribedKey> first, int maxKeys) {
        List<DescribedKey> keys = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String last = null;
        for (Map.Entry<String, DescribedKey> e : first.entrySet()) {
            if (keys.size() + prefixes.size() == maxKeys) {
                return new Page(keys, prefixes, last);
            }
            if (e.getValue() == null) {
                prefixes.add(e.getKey());
            } else {
                keys.add(e.getValue());
            }
            last = e.getKey();
        }
        return new Page(keys, prefixes, null);
    }

    /**
     * Whether no key Hybris lists after {@code listed} (under {@code prefix}) can sort before {@code cutoff} in S3's
     * order, so a scan that holds its page and {@code cutoff} beyond it may stop. Hybris lists by encoded key
     * ({@link KeyEncoding}): a character it escapes sorts there as {@code %}, below every character it keeps, while
     * S3 sorts it by code point. Two keys that share a prefix and first differ at characters both escaped, or both
     * kept, sort alike in both orders; they differ only where one key has a kept character and the other an
     * escaped one. So let {@code bound} be the encoded start of {@code cutoff} up to its first escaped character
     * after {@code prefix} (every key shares the prefix). Once the listing is past every name starting with
     * {@code bound}, a later key first differs from {@code cutoff} inside that start, at a kept character of
     * {@code cutoff}, where its own character is kept and greater (an escaped one would have sorted before
     * {@code cutoff}): it sorts after {@code cutoff} in S3's order too, and so does the common prefix it may
     * fall under.
     */
    static boolean nothingAfterSortsBefore(String listed, String cutoff, String prefix) {
        return pastBound(listed, scanBound(cutoff, prefix));
    }

    /** The encoded start of {@code cutoff} up to its first escaped character after {@code prefix}. */
    private static String scanBound(String cutoff, String prefix) {
        int end = prefix.length();
        while (end < cutoff.length() && isKept(cutoff.charAt(end)) && !(end == 0 && cutoff.charAt(0) == '.')) {
            end++;
        }
        return KeyEncoding.encode(cutoff.substring(0, end));
    }

    /** Whether the listing, at {@code listed}, is past every name starting with {@code bound}. */
    private static boolean pastBound(String listed, String bound) {
        String encoded = KeyEncoding.encode(listed);
        return encoded.compareTo(bound) > 0 && !encoded.startsWith(bound);
    }

    /** Whether {@link KeyEncoding} writes {@code c} as it is. */
    private static boolean isKept(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                || c == '.';
    }

    /**
     * S3's key order: by UTF-8 bytes, which for well-formed strings is the order of their code points (String's
     * own order is by UTF-16 units, which differs for characters above U+FFFF).
     */
    static int compareUtf8(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
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
        return maxParam("max-keys", v);
    }

    /** A {@code max-keys}-like parameter: a non-negative integer, at most 1,000 (the default). */
    static int maxParam(String name, String v) {
        return Math.min(nonNegative(name, v, MAX_KEYS), MAX_KEYS);
    }

    /** A parameter that is a non-negative integer, {@code absent} when it is not given. */
    static int nonNegative(String name, String v, int absent) {
        if (v == null) {
            return absent;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw S3Exception.invalidArgument(name + " must be a non-negative integer: " + v);
        }
    }

    static String enc(String s, boolean url) {
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
