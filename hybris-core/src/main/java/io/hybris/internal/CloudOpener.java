package io.hybris.internal;

import io.hybris.CloudSpec;
import io.hybris.HybrisException;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Creates the clouds a configuration names by type, all at once: each provider's start-up (client set-up, a
 * bucket check or creation over the network) runs on its own short-lived thread, so opening a client takes as
 * long as its slowest cloud rather than the sum. Providers are looked up on the calling thread, so a
 * configuration error (unknown type) surfaces before anything starts. Not thread-safe; one use per open.
 */
public final class CloudOpener {
    private final List<CloudStore> created = new ArrayList<>();

    /**
     * The clouds of {@code specs} in their order: application-supplied instances as they are, the others created
     * by their providers. If any creation fails, its exception is thrown (the others' failures suppressed in it)
     * after every creation has finished; the stores that were created are then in {@link #created()} for the
     * caller to close.
     */
    public List<CloudStore> open(List<CloudSpec> specs) {
        List<CloudStoreProvider> providers = new ArrayList<>();
        int toCreate = 0;
        for (CloudSpec spec : specs) {
            CloudStoreProvider provider = spec.instance().isPresent() ? null
                    : Providers.cloudProvider(spec.type(), "hybris.cloud." + spec.id() + ".type");
            providers.add(provider);
            toCreate += provider == null ? 0 : 1;
        }
        if (toCreate == 0) {
            return specs.stream().map(s -> s.instance().orElseThrow()).toList();
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        ExecutorService starters = Executors.newFixedThreadPool(toCreate, r -> {
            Thread t = new Thread(r, "hybris-cloud-open");
            t.setDaemon(true);
            t.setContextClassLoader(loader);
            return t;
        });
        try {
            List<Future<CloudStore>> futures = new ArrayList<>();
            for (int i = 0; i < specs.size(); i++) {
                CloudSpec spec = specs.get(i);
                CloudStoreProvider provider = providers.get(i);
                futures.add(provider == null ? null : starters.submit(() -> provider.create(spec.id(),
                        new ProviderOptions("hybris.cloud." + spec.id() + ".", spec.options()))));
            }
            return collect(specs, futures);
        } finally {
            starters.shutdown();
        }
    }

    /** The stores this opener created (to close if opening the client fails later). */
    public List<CloudStore> created() {
        return List.copyOf(created);
    }

    private List<CloudStore> collect(List<CloudSpec> specs, List<Future<CloudStore>> futures) {
        List<CloudStore> clouds = new ArrayList<>();
        RuntimeException failure = null;
        boolean interrupted = false;
        for (int i = 0; i < specs.size(); i++) {
            Future<CloudStore> f = futures.get(i);
            if (f == null) {
                clouds.add(specs.get(i).instance().orElseThrow());
                continue;
            }
            while (true) {
                try {
                    CloudStore store = f.get();
                    created.add(store);
                    clouds.add(store);
                    break;
                } catch (InterruptedException e) {
                    // keep waiting: a store created after we stopped listening would leak its connections
                    interrupted = true;
                } catch (ExecutionException e) {
                    RuntimeException cause = asRuntime(specs.get(i), e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            if (failure == null) {
                failure = new HybrisException("interrupted while opening the clouds");
            }
        }
        if (failure != null) {
            throw failure;
        }
        return clouds;
    }

    private static RuntimeException asRuntime(CloudSpec spec, Throwable cause) {
        if (cause instanceof RuntimeException r) {
            return r;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new HybrisException("opening cloud '" + spec.id() + "' failed: " + cause, cause);
    }
}
