package io.hybris.internal;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.ValueCacheProvider;

import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Finds {@link ValueCacheProvider}s with {@link ServiceLoader} ({@code hybris.cache.type}). */
public final class ValueCaches {
    private ValueCaches() {
    }

    /** The provider of {@code type}, or a configuration error naming what is available and how to add it. */
    public static ValueCacheProvider provider(String type) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ValueCaches.class.getClassLoader();
        }
        List<ValueCacheProvider> all = ServiceLoader.load(ValueCacheProvider.class, loader).stream()
                .map(ServiceLoader.Provider::get).toList();
        List<ValueCacheProvider> matching = all.stream().filter(p -> p.type().equals(type)).toList();
        if (matching.size() > 1) {
            throw new HybrisConfigurationException("hybris.cache.type=" + type + " is ambiguous: "
                    + matching.size() + " providers claim it (" + matching.stream().map(p -> p.getClass().getName())
                    .collect(Collectors.joining(", ")) + "); remove one from the class path");
        }
        if (matching.isEmpty()) {
            TreeSet<String> available = all.stream().map(ValueCacheProvider::type)
                    .collect(Collectors.toCollection(TreeSet::new));
            throw new HybrisConfigurationException("hybris.cache.type=" + type + ": no cache provider for type '"
                    + type + "' on the class path (available: " + (available.isEmpty() ? "none"
                    : String.join(", ", available)) + "); add the hybris-cache module for memcached");
        }
        return matching.get(0);
    }
}
