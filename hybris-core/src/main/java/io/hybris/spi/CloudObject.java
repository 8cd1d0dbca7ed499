/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * One object as listed by a {@link CloudStore}.
 *
 * @param key          the object key
 * @param size         the size in bytes
 * @param lastModified when the object was last written, as reported by the cloud
 */
public record CloudObject(String key, long size, Instant lastModified) {
    public CloudObject {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(lastModified, "lastModified");
    }
}
