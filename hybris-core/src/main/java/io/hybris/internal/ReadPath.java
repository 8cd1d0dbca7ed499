/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.MetadataKey;

import java.util.List;

/**
 * The common-case read path of the protocol, after the metadata read: the stored bytes of the version found.
 * {@link VersionPath} is the path itself (the version's layout over the clouds); {@link CachingPath} is the
 * value-cache step in front of it.
 */
interface ReadPath {
    /**
     * The stored bytes of {@code current}'s (live) version of {@code key}, verified against its metadata; or null
     * when its clouds cannot provide them (the caller then runs the worst case).
     */
    byte[] read(MetadataKey key, Current current, Deadline d, List<Throwable> failures);
}
