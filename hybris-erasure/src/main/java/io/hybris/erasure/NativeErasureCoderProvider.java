/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.spi.ErasureCoder;
import io.hybris.spi.ErasureCoderProvider;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Provides {@link NativeErasureCoder}s ({@code native}, ISA-L through JNI). Unavailable when the JNI library or ISA-L
 * cannot be loaded; the first time that is found, one log line says why (the Java coder is then used).
 */
public final class NativeErasureCoderProvider implements ErasureCoderProvider {

    /** The provider name, {@value}. */
    public static final String NAME = "native";

    private static final Logger LOG = LoggerFactory.getLogger(NativeErasureCoderProvider.class);
    private static final AtomicBoolean LOGGED = new AtomicBoolean();

    /** The provider, as {@link java.util.ServiceLoader} creates it. */
    public NativeErasureCoderProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        Optional<String> reason = IsalNative.unavailableReason();
        if (reason.isPresent() && LOGGED.compareAndSet(false, true)) {
            LOG.warn("Native (ISA-L) erasure coder unavailable, the Java coder is used instead: {}", reason.get());
        }
        return reason.isEmpty();
    }

    @Override
    public Optional<String> unavailableReason() {
        return IsalNative.unavailableReason();
    }

    @Override
    public ErasureCoder create(int k, int m) {
        ErasureCoder.checkParameters(k, m);
        Optional<String> reason = IsalNative.unavailableReason();
        if (reason.isPresent()) {
            throw new IllegalStateException("the native erasure coder is unavailable: " + reason.get()
                    + "; use the java coder (hybris.erasure.coder=java or auto)");
        }
        return new NativeErasureCoder(k, m);
    }
}
