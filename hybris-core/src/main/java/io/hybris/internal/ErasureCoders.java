/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.ErasureCoder;
import io.hybris.spi.ErasureCoderProvider;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the {@link ErasureCoderProvider} named by {@code hybris.erasure.coder} ({@code auto}: {@code native} if
 * it is available, else {@code java}) and keeps one coder per {@code (k, m)}. Thread-safe.
 */
final class ErasureCoders {

    private final String requested;
    private volatile ErasureCoderProvider provider;
    private final ConcurrentHashMap<Long, ErasureCoder> coders = new ConcurrentHashMap<>();

    ErasureCoders(String requested) {
        this.requested = requested;
    }

    /** Resolves the provider now, so a missing or unavailable coder fails at open. */
    ErasureCoders resolveNow() {
        provider();
        return this;
    }

    /** The coder for {@code k} data and {@code m} parity chunks. */
    ErasureCoder coder(int k, int m) {
        return coders.computeIfAbsent(((long) k << 32) | m, x -> provider().create(k, m));
    }

    private ErasureCoderProvider provider() {
        ErasureCoderProvider p = provider;
        if (p == null) {
            synchronized (this) {
                if (provider == null) {
                    provider = Providers.erasureCoderProvider(requested);
                }
                p = provider;
            }
        }
        return p;
    }
}
