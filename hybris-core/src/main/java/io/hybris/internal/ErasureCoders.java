package io.hybris.internal;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.ErasureCoder;
import io.hybris.spi.ErasureCoderProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the {@link ErasureCoderProvider} named by {@code hybris.erasure.coder} ({@code auto}: {@code native} if
 * it is available, else {@code java}) and keeps one coder per {@code (k, m)}. Thread-safe.
 */
final class ErasureCoders {

    private final String requested;
    private volatile ErasureCoderProvider provider;
    private final ConcurrentHashMap<Long, ErasureCoder> coders = new ConcurrentHashMap<>();

    ErasureCoders(String requested) {
        this.requested = requested;
    }

    /** Resolves the provider now, so a missing or unavailable coder fails at open. */
    ErasureCoders resolveNow() {
        provider();
        return this;
    }

    /** The coder for {@code k} data and {@code m} parity chunks. */
    ErasureCoder coder(int k, int m) {
        return coders.computeIfAbsent(((long) k << 32) | m, x -> provider().create(k, m));
    }

    private ErasureCoderProvider provider() {
        ErasureCoderProvider p = provider;
        if (p == null) {
            synchronized (this) {
                if (provider == null) {
                    provider = choose(requested);
                }
                p = provider;
            }
        }
        return p;
    }

    private static ErasureCoderProvider choose(String requested) {
        List<ErasureCoderProvider> found = new ArrayList<>();
        ServiceLoader.load(ErasureCoderProvider.class, ErasureCoders.class.getClassLoader()).forEach(found::add);
        if (found.isEmpty()) {
            throw new HybrisConfigurationException("erasure coding needs an erasure coder, and none is on the class"
                    + " path: add the hybris-erasure module (or set hybris.erasure.policy=replication)");
        }
        if (requested.equals("auto")) {
            for (String name : List.of("native", "java")) {
                for (ErasureCoderProvider p : found) {
                    if (p.name().equals(name) && p.isAvailable()) {
                        return p;
                    }
                }
            }
            for (ErasureCoderProvider p : found) {
                if (p.isAvailable()) {
                    return p;
                }
            }
            throw new HybrisConfigurationException("hybris.erasure.coder=auto found no available erasure coder among "
                    + found.stream().map(ErasureCoderProvider::name).toList());
        }
        for (ErasureCoderProvider p : found) {
            if (p.name().equals(requested)) {
                if (!p.isAvailable()) {
                    throw new HybrisConfigurationException("hybris.erasure.coder=" + requested + " is unavailable: "
                            + p.unavailableReason().orElse("no reason given")
                            + "; use hybris.erasure.coder=auto or java");
                }
                return p;
            }
        }
        throw new HybrisConfigurationException("hybris.erasure.coder=" + requested + " is unknown: use auto or one of "
                + found.stream().map(ErasureCoderProvider::name).toList());
    }
}
