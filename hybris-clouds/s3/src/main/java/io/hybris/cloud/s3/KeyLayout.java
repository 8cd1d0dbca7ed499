/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where a Hybris object key is stored in the bucket. S3 itself takes any key up to 1,024 bytes, but MinIO and other
 * servers that keep objects as files refuse a path segment longer than 255 characters (Hybris keys can have one:
 * a long user key is one percent-encoded segment). So:
 *
 * <ul>
 *   <li>a key whose segments are all at most {@value #MAX_SEGMENT} characters is stored as it is;</li>
 *   <li>any other key is stored as {@code <head>~/<sha-256 of the key>}, where {@code head} is the key cut after
 *       the first {@value #CUT} characters of its first segment longer than {@value #CUT}; the full key is kept in
 *       the object's user metadata ({@value #METADATA_KEY}) for {@code list}. Hybris keys never contain
 *       {@code ~}, so stored keys holding {@value #HASHED_MARK} are exactly the hashed ones.</li>
 * </ul>
 * The stored key is never longer than the key itself. A listing for prefix {@code p} asks S3 for
 * {@link #listPrefix(String) listPrefix(p)}, which is a prefix of the stored form of every key starting with
 * {@code p}; the caller filters the (decoded) results by {@code p}. Stateless.
 */
final class KeyLayout {
    /** The longest path segment stored unchanged (Linux's NAME_MAX, which MinIO enforces). */
    static final int MAX_SEGMENT = 255;
    /** Where the head of a hashed key is cut inside its first segment longer than this. */
    static final int CUT = 128;
    /** Marks a hashed stored key; {@code ~} never occurs in Hybris keys. */
    static final String HASHED_MARK = "~/";
    /** The user-metadata name (without {@code x-amz-meta-}) that holds a hashed object's full key. */
    static final String METADATA_KEY = "hybris-key";

    private KeyLayout() {
    }

    /** Whether the key is stored hashed (it has a segment longer than {@value #MAX_SEGMENT} characters). */
    static boolean needsHashing(String key) {
        int run = 0;
        for (int i = 0; i < key.length(); i++) {
            run = key.charAt(i) == '/' ? 0 : run + 1;
            if (run > MAX_SEGMENT) {
                return true;
            }
        }
        return false;
    }

    /** The key under which {@code key} is stored (without the store's prefix). */
    static String stored(String key) {
        return needsHashing(key) ? head(key) + HASHED_MARK + sha256(key) : key;
    }

    /** Whether a stored key (without the store's prefix) is a hashed one, whose real key is in its metadata. */
    static boolean isHashed(String storedKey) {
        return storedKey.contains(HASHED_MARK);
    }

    /** The prefix to list in S3 to find every key that starts with {@code prefix}, stored plainly or hashed. */
    static String listPrefix(String prefix) {
        return head(prefix);
    }

    /** {@code s} up to and including the first {@value #CUT} characters of its first segment longer than that. */
    static String head(String s) {
        int run = 0;
        for (int i = 0; i < s.length(); i++) {
            run = s.charAt(i) == '/' ? 0 : run + 1;
            if (run == CUT) {
                return s.substring(0, i + 1);
            }
        }
        return s;
    }

    private static String sha256(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
