/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ErasureCoderProvider;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.ValueCacheProvider;

import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one provider discovery for all four SPIs ({@link CloudStoreProvider}, {@link MetadataStoreProvider},
 * {@link ValueCacheProvider}, {@link ErasureCoderProvider}): {@link ServiceLoader} on the thread's context class
 * loader (else this library's), a provider chosen by its type name, and the same two errors everywhere — an
 * unknown type names what is available and the module to add; an ambiguous one names the providers that claim it.
 */
public final class Providers {
    private Providers() {
    }

    /** The cloud provider of {@code type}; {@code key} names the property for error messages. */
    public static CloudStoreProvider cloudProvider(String type, String key) {
        return find(CloudStoreProvider.class, CloudStoreProvider::type, type, key,
                "add the Hybris module for it (e.g. hybris-cloud-s3) to the class path");
    }

    /** The metadata store provider of {@code type}. */
    public static MetadataStoreProvider metadataProvider(String type) {
        return find(MetadataStoreProvider.class, MetadataStoreProvider::type, type, "hybris.rmds.type",
                "add the Hybris module for it to the class path (hybris-rmds-zookeeper, hybris-rmds-zookeeper-embedded"
                        + " for embedded-zookeeper, hybris-rmds-consul)");
    }

    /** The value cache provider of {@code type} ({@code hybris.cache.type}). */
    public static ValueCacheProvider cacheProvider(String type) {
        return find(ValueCacheProvider.class, ValueCacheProvider::type, type, "hybris.cache.type",
                "add the hybris-cache module for memcached");
    }

    /**
     * The erasure coder provider named {@code name} ({@code hybris.erasure.coder}), which must be available on
     * this machine; {@code auto} chooses {@code native} if it is available, else {@code java}, else any available.
     */
    public static ErasureCoderProvider erasureCoderProvider(String name) {
        String key = "hybris.erasure.coder";
        String hint = "add the hybris-erasure module (or set hybris.erasure.policy=replication)";
        if (!name.equals("auto")) {
            ErasureCoderProvider p = find(ErasureCoderProvider.class, ErasureCoderProvider::name, name, key, hint);
            if (!p.isAvailable()) {
                throw new HybrisConfigurationException(key + "=" + name + " is unavailable: "
                        + p.unavailableReason().orElse("no reason given") + "; use " + key + "=auto or java");
            }
            return p;
        }
        List<ErasureCoderProvider> found = all(ErasureCoderProvider.class);
        if (found.isEmpty()) {
            throw new HybrisConfigurationException("erasure coding needs an erasure coder, and none is on the class"
                    + " path: " + hint);
        }
        for (String preferred : List.of("native", "java")) {
            for (ErasureCoderProvider p : found) {
                if (p.name().equals(preferred) && p.isAvailable()) {
                    return p;
                }
            }
        }
        return found.stream().filter(ErasureCoderProvider::isAvailable).findFirst()
                .orElseThrow(() -> new HybrisConfigurationException(key + "=auto found no available erasure coder"
                        + " among " + found.stream().map(ErasureCoderProvider::name).toList()));
    }

    private static <P> List<P> all(Class<P> spi) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = Providers.class.getClassLoader();
        }
        return ServiceLoader.load(spi, loader).stream().map(ServiceLoader.Provider::get).toList();
    }

    private static <P> P find(Class<P> spi, Function<P, String> typeOf, String type, String key, String hint) {
        List<P> all = all(spi);
        List<P> matching = all.stream().filter(p -> typeOf.apply(p).equals(type)).toList();
        if (matching.size() > 1) {
            throw new HybrisConfigurationException(key + "=" + type + " is ambiguous: " + matching.size()
                    + " providers claim it (" + matching.stream().map(p -> p.getClass().getName())
                    .collect(Collectors.joining(", ")) + "); remove one from the class path");
        }
        if (matching.isEmpty()) {
            TreeSet<String> available = all.stream().map(typeOf).collect(Collectors.toCollection(TreeSet::new));
            throw new HybrisConfigurationException(key + "=" + type + ": no provider for type '" + type
                    + "' on the class path (available: " + (available.isEmpty() ? "none"
                    : String.join(", ", available)) + "); " + hint);
        }
        return matching.get(0);
    }
}
