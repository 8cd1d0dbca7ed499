/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.List;

/**
 * What a scrub found for one key's current version (docs/scrub.md), and what repair did about it. A copy is one
 * stored object: a replica, an erasure-coded fragment, or a piece of a chunked value (its manifest or a chunk).
 *
 * @param container   the container
 * @param key         the key
 * @param version     the version checked ({@link VersionInfo#version()} form)
 * @param status      the verdict
 * @param missingOn   clouds missing a copy the metadata says they hold (or holding one of the wrong size)
 * @param corruptOn   clouds whose copy failed the hash check (deep scrub only)
 * @param uncheckedOn clouds that could not be checked (listing or read failed)
 * @param repairedOn  clouds that received a rebuilt copy (the same cloud, or the one that replaced it)
 * @param detail      why the key is unrecoverable or not repaired, else empty
 */
public record KeyHealth(String container, String key, String version, Status status, List<String> missingOn,
                        List<String> corruptOn, List<String> uncheckedOn, List<String> repairedOn, String detail) {
    /** The verdict on a key. */
    public enum Status {
        /** Every copy the metadata lists is where it should be (and, for a deep scrub, hash-checked). */
        HEALTHY,
        /** Copies are missing or corrupt and were not repaired (a scrub without repair, or a repair that failed). */
        DEGRADED,
        /** Copies were missing or corrupt and have been rebuilt. */
        REPAIRED,
        /** Fewer good copies than needed to rebuild (no good replica, fewer than k good fragments). */
        UNRECOVERABLE,
        /** A concurrent write replaced the version while it was checked or repaired: nothing to do. */
        SUPERSEDED
    }

    public KeyHealth {
        missingOn = List.copyOf(missingOn);
        corruptOn = List.copyOf(corruptOn);
        uncheckedOn = List.copyOf(uncheckedOn);
        repairedOn = List.copyOf(repairedOn);
    }
}
