/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.nio.charset.StandardCharsets;

/**
 * The scrub's anti-entropy digests (docs/scrub.md): keys hash into {@value #BUCKETS} buckets per container, and a
 * bucket's digest on a cloud is the order-independent sum of {@link #of its objects' entries}. Stateless.
 */
final class ListingDigest {
    static final int BUCKETS = 1024;

    private ListingDigest() {
    }

    /** The bucket of a key. */
    static int bucket(String container, String key) {
        return (int) (fnv(container + "/" + key) & (BUCKETS - 1));
    }

    /** One listed object's share of its bucket's digest: a hash of its name and size. */
    static long of(String objectName, long size) {
        return fnv(objectName + "|" + size);
    }

    private static long fnv(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }
}
