/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Optional;

/**
 * Creates {@link ErasureCoder}s of one implementation, found with {@link java.util.ServiceLoader}. Register an
 * implementation in {@code META-INF/services/io.hybris.spi.ErasureCoderProvider}. All providers produce identical
 * chunks (the code is fixed by {@link ErasureCoder}), so the choice only affects speed.
 */
public interface ErasureCoderProvider {

    /** The name that selects this provider, e.g. {@code java} or {@code native}. */
    String name();

    /**
     * Whether this provider can create coders in this process (a native provider may lack its library). Cheap
     * after the first call.
     */
    boolean isAvailable();

    /** Why {@link #isAvailable()} is {@code false}, or empty when it is available. */
    Optional<String> unavailableReason();

    /**
     * Creates a coder for {@code k} data and {@code m} parity chunks.
     *
     * @throws IllegalArgumentException if the parameters are invalid (see {@link ErasureCoder#checkParameters})
     * @throws IllegalStateException    if the provider is not available
     */
    ErasureCoder create(int k, int m);
}
