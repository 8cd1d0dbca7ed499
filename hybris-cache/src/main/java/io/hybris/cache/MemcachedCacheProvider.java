/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.ValueCache;
import io.hybris.spi.ValueCacheProvider;
import io.hybris.spi.support.Option;
import io.hybris.spi.support.OptionSet;
import io.hybris.spi.support.StandardOptions;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator;
import net.rubyeye.xmemcached.utils.AddrUtil;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Creates a {@link MemcachedValueCache} for {@code hybris.cache.type=memcached}. Its options (under
 * {@code hybris.cache.}), their defaults and meaning are {@link #OPTIONS} (the table in {@code docs/cache.md} is
 * made from it). Stateless and thread-safe.
 */
public final class MemcachedCacheProvider implements ValueCacheProvider {
    static final Option<String> SERVERS = Option.string("servers", null, "`host:port` list (commas or spaces);"
            + " keys are spread by consistent hashing").required();
    static final Option<Duration> TIMEOUT = Option.duration("timeout", Duration.ofMillis(200), "the longest any"
            + " cache call waits; then it is a miss. Keep it well below cloud latency").positive();
    static final Option<Duration> CONNECT_TIMEOUT = StandardOptions.CONNECT_TIMEOUT
            .defaultValue(Duration.ofSeconds(1)).doc("TCP connect timeout to a server");
    static final Option<Long> MAX_ITEM_SIZE = Option.size("max-item-size", 1L << 20, "the servers' item limit"
            + " (`memcached -I`); values within 512 bytes of it or above **bypass the cache** (not chunked) and are"
            + " counted in `CacheStats.bypassed`").defaultText("`1MiB`").check((key, size) -> {
                if (size <= MemcachedValueCache.ITEM_OVERHEAD || size > Integer.MAX_VALUE) {
                    throw new HybrisConfigurationException(key + "=" + size + " must be above "
                            + MemcachedValueCache.ITEM_OVERHEAD + " bytes and at most 2 GiB; use the servers'"
                            + " memcached -I value (1MiB by default)");
                }
            });
    static final Option<Integer> CONNECTIONS = Option.integer("connections", 1, "connections per server")
            .between(1, 64, "");

    /** Every option of this provider, in the order of its documentation. */
    public static final OptionSet OPTIONS = OptionSet.of(SERVERS, TIMEOUT, CONNECT_TIMEOUT, MAX_ITEM_SIZE,
            CONNECTIONS);

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public MemcachedCacheProvider() {
    }

    @Override
    public String type() {
        return "memcached";
    }

    @Override
    public Set<String> optionNames() {
        return OPTIONS.names();
    }

    @Override
    public ValueCache create(ProviderOptions options) {
        String servers = SERVERS.get(options).replaceAll("[,\\s]+", " ");
        List<InetSocketAddress> addresses;
        try {
            addresses = AddrUtil.getAddresses(servers);
        } catch (RuntimeException e) {
            throw new HybrisConfigurationException(options.qualified("servers") + "=" + servers
                    + " is not a list of host:port: " + e.getMessage(), e);
        }
        if (addresses.isEmpty()) {
            throw new HybrisConfigurationException(options.qualified("servers") + " lists no host:port");
        }
        Duration timeout = TIMEOUT.get(options);
        Duration connectTimeout = CONNECT_TIMEOUT.get(options);
        long maxItemSize = MAX_ITEM_SIZE.get(options);
        int connections = CONNECTIONS.get(options);
        XMemcachedClientBuilder builder = new XMemcachedClientBuilder(addresses);
        builder.setOpTimeout(timeout.toMillis());
        builder.setConnectTimeout(connectTimeout.toMillis());
        builder.setConnectionPoolSize(connections);
        // consistent hashing (xmemcached's default is a hash modulo the servers up: one server's outage would move
        // most keys of the others, and their older entries would be served again when it returns)
        builder.setSessionLocator(new KetamaMemcachedSessionLocator());
        builder.setTranscoder(RawBytesTranscoder.INSTANCE);
        builder.setFailureMode(false);
        builder.setEnableHealSession(true);
        builder.setHealSessionInterval(1000);
        builder.setName("hybris-cache");
        MemcachedClient client;
        try {
            client = builder.build();
        } catch (IOException e) {
            // only a local problem (selector, sockets) gets here: unreachable servers are retried in the background
            throw new io.hybris.spi.ValueCacheException("cannot start the memcached client for " + servers + ": "
                    + e, e);
        }
        client.setOpTimeout(timeout.toMillis());
        return new MemcachedValueCache(client, servers.replace(' ', ','), timeout, maxItemSize);
    }
}
