/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The chunk manifests this client read or wrote recently, by version object name, so that range reads of one large
 * value (an S3 client's parallel ranged GETs, a media player seeking) read its manifest from a cloud once, not per
 * range, and a read of a version this client wrote reads none (a write keeps the manifest it stored). A version's
 * name is unique per write and its manifest never changes, and every hit is checked against the hash in the
 * version's metadata, so a stale or wrong entry can only miss. Least recently used entries leave first, beyond
 * {@code maxBytes} of manifests. Thread-safe.
 */
final class ManifestCache {
    private final long maxBytes;
    private long bytes;
    private final LinkedHashMap<String, byte[]> entries = new LinkedHashMap<>(64, 0.75f, true);

    ManifestCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The cached manifest of {@code meta}'s version, if its hash is the one in metadata; else null. */
    byte[] get(String objectName, Metadata meta) {
        byte[] found;
        synchronized (entries) {
            found = entries.get(objectName);
        }
        return found != null && Arrays.equals(Hashing.sha256(found), meta.sha256()) ? found : null;
    }

    /** Remembers the verified manifest of a version. */
    void put(String objectName, byte[] manifest) {
        if (manifest.length > maxBytes) {
            return;
        }
        synchronized (entries) {
            byte[] old = entries.put(objectName, manifest);
            bytes += manifest.length - (old == null ? 0 : old.length);
            var it = entries.entrySet().iterator();
            while (bytes > maxBytes && it.hasNext()) {
                Map.Entry<String, byte[]> eldest = it.next();
                bytes -= eldest.getValue().length;
                it.remove();
            }
        }
    }
}
