/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.spi.ErasureCoder;
import io.hybris.spi.ErasureCoderProvider;

import java.util.Optional;

/** Provides {@link JavaErasureCoder}s ({@code java}); always available. */
public final class JavaErasureCoderProvider implements ErasureCoderProvider {

    /** The provider name, {@value}. */
    public static final String NAME = "java";

    /** The provider, as {@link java.util.ServiceLoader} creates it. */
    public JavaErasureCoderProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    @Override
    public ErasureCoder create(int k, int m) {
        return new JavaErasureCoder(k, m);
    }
}
