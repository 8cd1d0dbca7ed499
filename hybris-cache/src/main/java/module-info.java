/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** The memcached value cache for Hybris ({@code hybris.cache.type=memcached}). */
@SuppressWarnings("requires-automatic")
module io.hybris.cache {
    requires transitive io.hybris.core;
    requires org.slf4j;
    requires xmemcached;

    exports io.hybris.cache;

    provides io.hybris.spi.ValueCacheProvider with io.hybris.cache.MemcachedCacheProvider;
}
