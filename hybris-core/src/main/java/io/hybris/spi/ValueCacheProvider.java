/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Set;

/**
 * Creates {@link ValueCache}s of one type, found with {@link java.util.ServiceLoader} from the configuration
 * {@code hybris.cache.type=<type>}; its options are the remaining {@code hybris.cache.*} keys that are not core
 * cache settings (e.g. {@code hybris.cache.servers}). Register an implementation in
 * {@code META-INF/services/io.hybris.spi.ValueCacheProvider}.
 */
public interface ValueCacheProvider {

    /** The value of {@code hybris.cache.type} that selects this provider, e.g. {@code memcached}. */
    String type();

    /** The option names this provider understands (without the {@code hybris.cache.} prefix). */
    Set<String> optionNames();

    /**
     * Creates a cache. A server that is down at creation time must not make this fail (the client then reads from
     * the clouds until the server is back); only invalid options throw
     * {@link io.hybris.HybrisConfigurationException}.
     */
    ValueCache create(ProviderOptions options);
}
