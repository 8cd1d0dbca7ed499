package io.hybris.internal;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.MetadataStoreProvider;

import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Finds {@link CloudStoreProvider}s and {@link MetadataStoreProvider}s with {@link ServiceLoader}. */
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
                "add the Hybris module for it (e.g. hybris-rmds-zookeeper) to the class path");
    }

    private static <P> P find(Class<P> spi, Function<P, String> typeOf, String type, String key, String hint) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = Providers.class.getClassLoader();
        }
        List<P> all = ServiceLoader.load(spi, loader).stream().map(ServiceLoader.Provider::get).toList();
        List<P> matching = all.stream().filter(p -> typeOf.apply(p).equals(type)).toList();
        if (matching.size() > 1) {
            throw new HybrisConfigurationException(key + "=" + type + " is ambiguous: " + matching.size()
                    + " providers claim it (" + matching.stream().map(p -> p.getClass().getName())
                    .collect(Collectors.joining(", ")) + "); remove one from the class path");
        }
        if (matching.isEmpty()) {
            TreeSet<String> available = all.stream().map(typeOf).collect(Collectors.toCollection(TreeSet::new));
            throw new HybrisConfigurationException(key + "=" + type + ": no provider for type '" + type
                    + "' on the class path (available: " + String.join(", ", available) + "); " + hint);
        }
        return matching.get(0);
    }
}
