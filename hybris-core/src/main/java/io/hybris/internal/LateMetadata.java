/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.PutOptions;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * A write's application metadata, taken from its {@link PutOptions} when first used: the write path uses it only
 * once the value has been read in full (and, for a chunked value, uploaded), so pairs from
 * {@link PutOptions#withMetadataAfterRead} can depend on the bytes. Not thread-safe; used by one write.
 */
final class LateMetadata extends AbstractMap<String, String> {
    private final PutOptions options;
    private Map<String, String> resolved;

    private LateMetadata(PutOptions options) {
        this.options = options;
    }

    /** The metadata of {@code options} (none if null), resolved on first use. */
    static Map<String, String> of(PutOptions options) {
        return options == null ? Map.of() : new LateMetadata(options);
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        if (resolved == null) {
            resolved = options.metadataAfterRead();
        }
        return resolved.entrySet();
    }
}
