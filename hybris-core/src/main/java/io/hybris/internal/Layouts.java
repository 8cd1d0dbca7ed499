/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisConfig;
import io.hybris.ErasurePolicy;
import io.hybris.spi.ErasureCoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the {@link Layout} of a version: for a write, by the container's placement policy and the size of the
 * stored bytes; for a read, by what the version's metadata records. The one place a new layout is wired in.
 * Immutable.
 */
final class Layouts {
    private static final Logger LOG = LoggerFactory.getLogger(Layouts.class);

    private final HybrisConfig config;
    private final ReplicatedLayout replicated;
    private final Layout erasure;
    private final ErasureCoders coders;

    Layouts(HybrisConfig config, CloudCalls calls) {
        this.config = config;
        this.coders = new ErasureCoders(config.erasureCoder());
        if (config.erasureCodingUsed() || !config.erasureCoder().equals("auto")) {
            ErasureCoder coder = coders.resolveNow().coder(config.erasureDataChunks(), config.f());
            if (config.erasureCodingUsed()) {
                LOG.info("erasure coding: k={} data + f={} parity chunks, {} coder", config.erasureDataChunks(),
                        config.f(), coder.name());
            }
        }
        this.replicated = new ReplicatedLayout(calls, config.f());
        this.erasure = new ErasureLayout(calls, coders, config.erasureDataChunks(), config.f());
    }

    /** The layout for a new version of {@code size} stored bytes in {@code container}. */
    Layout forWrite(String container, long size) {
        ErasurePolicy policy = config.erasurePolicy(container);
        boolean coded = policy == ErasurePolicy.ERASURE
                || policy == ErasurePolicy.THRESHOLD && size >= config.erasureThreshold(container);
        return coded ? erasure : replicated;
    }

    /** Full replication, whatever the policy (a chunked value's manifest). */
    ReplicatedLayout replicated() {
        return replicated;
    }

    /** The erasure coders (to rebuild a lost fragment). */
    ErasureCoders coders() {
        return coders;
    }

    /** The layout the version {@code meta} was stored with. */
    Layout forRead(Metadata meta) {
        return meta.erasure() != null ? erasure : replicated;
    }
}
