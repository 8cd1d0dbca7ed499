/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Set;

/**
 * Creates {@link MetadataStore}s of one type, found with {@link java.util.ServiceLoader} from the
 * configuration {@code hybris.rmds.type=<type>}; options come from {@code hybris.rmds.<type>.*}. Register an
 * implementation in {@code META-INF/services/io.hybris.spi.MetadataStoreProvider}.
 */
public interface MetadataStoreProvider {

    /** The value of {@code hybris.rmds.type} that selects this provider, e.g. {@code zookeeper}. */
    String type();

    /** The option names this provider understands (without the {@code hybris.rmds.<type>.} prefix). */
    Set<String> optionNames();

    /** Creates and connects a store; an unreachable service throws {@link io.hybris.MetadataUnavailableException}. */
    MetadataStore create(ProviderOptions options);
}
