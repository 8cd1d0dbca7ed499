/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CloudSpec;
import io.hybris.HybrisException;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.TransientCloudException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Creates the clouds a configuration names by type, all at once: each provider's start-up (client set-up, a
 * bucket check or creation over the network) runs on its own short-lived thread, so opening a client takes as
 * long as its slowest cloud rather than the sum. Providers are looked up on the calling thread, so a
 * configuration error (unknown type) surfaces before anything starts. A cloud that cannot be reached at start
 * (its start-up fails with a {@link TransientCloudException}) does not stop the client from opening — up to
 * {@code f} clouds may be down — it becomes a {@link DeferredCloudStore} that fails calls as an outage and starts
 * the real store once the cloud answers. Any other failure (bad credentials, a missing bucket, bad options) fails
 * the open. Not thread-safe; one use per open.
 */
public final class CloudOpener {
    private static final Logger LOG = LoggerFactory.getLogger(CloudOpener.class);
    private final List<CloudStore> created = new ArrayList<>();

    /**
     * The clouds of {@code specs} in their order: application-supplied instances as they are, the others created
     * by their providers (an unreachable one deferred, see above). If any creation fails otherwise, its exception
     * is thrown (the others' failures suppressed in it; an {@link Error} too) after every creation has finished; the
     * stores that were created are then in {@link #created()} for the caller to close.
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
            List<Supplier<CloudStore>> starts = new ArrayList<>();
            for (int i = 0; i < specs.size(); i++) {
                CloudSpec spec = specs.get(i);
                CloudStoreProvider provider = providers.get(i);
                Supplier<CloudStore> start = provider == null ? null : () -> provider.create(spec.id(),
                        new ProviderOptions("hybris.cloud." + spec.id() + ".", spec.options()));
                starts.add(start);
                futures.add(start == null ? null : starters.submit(start::get));
            }
            return collect(specs, futures, starts);
        } finally {
            starters.shutdown();
        }
    }

    /** The stores this opener created (to close if opening the client fails later). */
    public List<CloudStore> created() {
        return List.copyOf(created);
    }

    private List<CloudStore> collect(List<CloudSpec> specs, List<Future<CloudStore>> futures,
                                     List<Supplier<CloudStore>> starts) {
        List<CloudStore> clouds = new ArrayList<>();
        Throwable failure = null;
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
                    if (e.getCause() instanceof TransientCloudException unreachable) {
                        LOG.warn("cloud {} is unreachable while the client opens; it counts as down until it answers:"
                                + " {}", specs.get(i).id(), unreachable.getMessage());
                        CloudStore deferred = new DeferredCloudStore(specs.get(i).id(), starts.get(i), unreachable,
                                System.nanoTime());
                        created.add(deferred);
                        clouds.add(deferred);
                        break;
                    }
                    // an Error too waits for the other creations, so that the stores they made can be closed
                    Throwable cause = asRuntimeOrError(specs.get(i), e.getCause());
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
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw (RuntimeException) failure;
        }
        return clouds;
    }

    private static Throwable asRuntimeOrError(CloudSpec spec, Throwable cause) {
        if (cause instanceof RuntimeException || cause instanceof Error) {
            return cause;
        }
        return new HybrisException("opening cloud '" + spec.id() + "' failed: " + cause, cause);
    }
}
