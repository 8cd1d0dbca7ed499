/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ManifestCacheTest {
    private static Metadata versionOf(byte[] manifest) {
        return new Metadata(new Timestamp(1, "w1"), List.of("c0", "c1"), Hashing.sha256(manifest), manifest.length);
    }

    @Test
    void aHitIsOnlyAManifestWhoseHashIsTheOneInMetadata() {
        ManifestCache cache = new ManifestCache(1 << 10);
        byte[] manifest = {1, 2, 3};
        cache.put("v1", manifest);

        assertThat(cache.get("v1", versionOf(manifest))).isEqualTo(manifest);
        assertThat(cache.get("v1", versionOf(new byte[] {1, 2, 4}))).as("another version's hash").isNull();
        assertThat(cache.get("v2", versionOf(manifest))).isNull();
    }

    @Test
    void theLeastRecentlyUsedLeaveBeyondTheByteBound() {
        ManifestCache cache = new ManifestCache(100);
        byte[] a = new byte[40];
        byte[] b = new byte[40];
        byte[] c = new byte[40];
        b[0] = 1;
        c[0] = 2;
        cache.put("a", a);
        cache.put("b", b);
        assertThat(cache.get("a", versionOf(a))).isNotNull(); // a is now the most recently used
        cache.put("c", c);

        assertThat(cache.get("b", versionOf(b))).as("least recently used").isNull();
        assertThat(cache.get("a", versionOf(a))).isNotNull();
        assertThat(cache.get("c", versionOf(c))).isNotNull();
        cache.put("huge", new byte[101]);
        assertThat(cache.get("huge", versionOf(new byte[101]))).as("larger than the bound: not kept").isNull();
        assertThat(cache.get("c", versionOf(c))).isNotNull();
    }

    /**
     * Storing a manifest again under its name (a read of a version this client already holds) counts its bytes once:
     * counting the replaced copy too would evict manifests while the cache holds fewer bytes than its bound.
     */
    @Test
    void aManifestStoredAgainUnderItsNameCountsItsBytesOnce() {
        ManifestCache cache = new ManifestCache(100);
        byte[] a = new byte[40];
        byte[] b = new byte[40];
        b[0] = 1;
        cache.put("a", a);
        cache.put("a", a.clone());
        cache.put("a", a.clone());
        cache.put("b", b);

        assertThat(cache.get("a", versionOf(a))).as("80 of 100 bytes held: nothing evicted").isEqualTo(a);
        assertThat(cache.get("b", versionOf(b))).isEqualTo(b);
    }

    /** Manifests adding up to exactly the byte bound are all kept: only bytes above the bound evict. */
    @Test
    void manifestsFillingTheBoundExactlyAreAllKept() {
        ManifestCache cache = new ManifestCache(100);
        byte[] a = new byte[60];
        byte[] b = new byte[40];
        b[0] = 1;
        cache.put("a", a);
        cache.put("b", b);

        assertThat(cache.get("a", versionOf(a))).as("100 of 100 bytes held").isEqualTo(a);
        assertThat(cache.get("b", versionOf(b))).isEqualTo(b);
    }
}
