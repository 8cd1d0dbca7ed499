/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the metadata says about one version of a key: which version it is, where it is stored, how to verify it,
 * and the application metadata written with it. Returned by {@link Hybris#describe}, by the writes (the version
 * they committed) and by a stream ({@link ValueStream#version()}).
 *
 * @param sequence  the timestamp's sequence number (grows by one per write of the key; by 2^32 for an upload in
 *                  parts, which reserves its version when it starts: {@link PartUploads})
 * @param clientId  the client that wrote the version; {@code -} and its id for a version a scrub or migration of
 *                  that client rewrote with the bytes of the version before it (docs/scrub.md)
 * @param clouds    ids of the clouds holding the value, in the order they acknowledged it (empty for a deletion)
 * @param size      the value's length in bytes (0 for a deletion)
 * @param sha256Hex the SHA-256 of the stored bytes (for a chunked value, of its chunk manifest), lower-case hex;
 *                  empty for a deletion
 * @param version   the version's identity, unique per write: {@code <sequence>_<clientId>.<write id>} (the
 *                  write id, in base 36, tells apart two writes of one client that chose the same sequence
 *                  number); the suffix of the version's object names on the clouds, and what
 *                  {@link PutOptions#ifMatch} and {@link DeleteOptions#ifMatch} take
 * @param metadata  the version's application metadata ({@link PutOptions#withMetadata}), by name; empty if none
 * @param chunks    how many chunks a chunked (large) value is stored in (docs/streaming.md); 0 for a value stored
 *                  whole, and for one uploaded in parts (its chunks vary in size: its manifest lists them)
 */
public record VersionInfo(long sequence, String clientId, List<String> clouds, long size, String sha256Hex,
                          String version, Map<String, String> metadata, long chunks) {
    public VersionInfo {
        clouds = List.copyOf(clouds);
        Objects.requireNonNull(version, "version");
        metadata = Collections.unmodifiableMap(new TreeMap<>(metadata));
    }

    /** Whether this is the version a deletion wrote (no value: no clouds, no hash). */
    public boolean isDeletion() {
        return sha256Hex.isEmpty();
    }
}
