/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Maps Hybris cache keys onto memcached keys (at most 250 bytes of printable ASCII without spaces), injectively:
 * a key that qualifies is used as it is; any other becomes {@code sha256:<64 hex digits of its SHA-256>}. Hybris
 * keys always contain {@code /} and hashed ones never do, so the two forms cannot collide.
 */
final class MemcachedKeys {
    /** memcached's limit. */
    static final int MAX_KEY_BYTES = 250;

    private MemcachedKeys() {
    }

    static String toMemcached(String key) {
        if (key.isEmpty()) {
            throw new IllegalArgumentException("cache keys must not be empty");
        }
        if (key.length() <= MAX_KEY_BYTES && key.chars().allMatch(c -> c > 0x20 && c < 0x7f)
                && !key.startsWith("sha256:")) {
            return key;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
