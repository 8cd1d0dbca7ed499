package io.hybris.cache;

import io.hybris.HybrisConfigurationException;
import io.hybris.internal.ConfigValues;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.ValueCache;
import io.hybris.spi.ValueCacheProvider;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.rubyeye.xmemcached.utils.AddrUtil;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Creates a {@link MemcachedValueCache} for {@code hybris.cache.type=memcached}. Options (under
 * {@code hybris.cache.}):
 * <ul>
 *   <li>{@code servers} (required): {@code host:port} list separated by commas or spaces;</li>
 *   <li>{@code timeout} ({@code 200ms}): the longest any cache call waits — keep it well below cloud latency;</li>
 *   <li>{@code connect-timeout} ({@code 1s});</li>
 *   <li>{@code max-item-size} ({@code 1MiB}): the servers' item-size limit ({@code memcached -I}); values within
 *       512 bytes of it or above bypass the cache;</li>
 *   <li>{@code connections} ({@code 1}): connections per server.</li>
 * </ul>
 */
public final class MemcachedCacheProvider implements ValueCacheProvider {
    private static final Set<String> OPTIONS = Set.of("servers", "timeout", "connect-timeout", "max-item-size",
            "connections");

    @Override
    public String type() {
        return "memcached";
    }

    @Override
    public Set<String> optionNames() {
        return OPTIONS;
    }

    @Override
    public ValueCache create(ProviderOptions options) {
        String servers = options.require("servers").trim().replaceAll("[,\\s]+", " ");
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
        Duration timeout = options.duration("timeout", Duration.ofMillis(200));
        Duration connectTimeout = options.duration("connect-timeout", Duration.ofSeconds(1));
        long maxItemSize = options.get("max-item-size")
                .map(v -> ConfigValues.parseSize(options.qualified("max-item-size"), v)).orElse(1L << 20);
        int connections = options.integer("connections", 1);
        if (timeout.isZero() || timeout.isNegative() || connectTimeout.isZero() || connectTimeout.isNegative()) {
            throw new HybrisConfigurationException(options.qualified("timeout") + " and "
                    + options.qualified("connect-timeout") + " must be positive");
        }
        if (maxItemSize <= MemcachedValueCache.ITEM_OVERHEAD || maxItemSize > Integer.MAX_VALUE) {
            throw new HybrisConfigurationException(options.qualified("max-item-size") + "=" + maxItemSize
                    + " must be above " + MemcachedValueCache.ITEM_OVERHEAD + " bytes and at most 2 GiB; use the"
                    + " servers' memcached -I value (1MiB by default)");
        }
        if (connections < 1 || connections > 64) {
            throw new HybrisConfigurationException(options.qualified("connections") + "=" + connections
                    + " must be between 1 and 64");
        }
        XMemcachedClientBuilder builder = new XMemcachedClientBuilder(addresses);
        builder.setOpTimeout(timeout.toMillis());
        builder.setConnectTimeout(connectTimeout.toMillis());
        builder.setConnectionPoolSize(connections);
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
