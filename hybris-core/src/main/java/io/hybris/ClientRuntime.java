/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.internal.CloudOpener;
import io.hybris.internal.Engine;
import io.hybris.internal.Providers;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.ValueCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one {@link Hybris} client owns at run time: its threads (cloud I/O, metadata calls, garbage collection,
 * async calls, maintenance), the protocol engine, and the metadata store, clouds and value cache it created from
 * configuration (application-supplied ones are used, not owned). Opening creates them in order and closes what it
 * created if a later step fails; closing releases them.
 */
final class ClientRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(Hybris.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    /** How often the clouds due for a latency recheck are looked for (a scan of the estimates when none is due). */
    private static final Duration RECHECK_TICK = Duration.ofSeconds(3);

    final Engine engine;
    final ExecutorService asyncCalls;
    private final MetadataStore metadata;
    private final boolean ownsMetadata;
    private final List<CloudStore> ownedClouds;
    private final ValueCache valueCache;
    private final boolean ownsValueCache;
    private final ExecutorService io;
    /** The background start-up probe ({@link StartupProbe#AUTO}), which close() lets finish; null if none. */
    private final java.util.concurrent.Future<?> startupProbe;
    private final ExecutorService metadataCalls;
    private final ExecutorService gcExecutor;
    private final ScheduledExecutorService sweeper;
    private final ScheduledExecutorService scrubber;
    /** The thread of the first {@link #close()}, null until it starts; later closes wait for {@link #released}. */
    private final java.util.concurrent.atomic.AtomicReference<Thread> closer =
            new java.util.concurrent.atomic.AtomicReference<>();
    private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
    /** The live threads of the pools close() waits for or interrupts (all but the async calls'), and the GC's. */
    private final java.util.Set<Thread> ownThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.Set<Thread> gcThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The threads of the async calls (a callback of a future there may close the client). */
    private final java.util.Set<Thread> asyncThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private ClientRuntime(HybrisConfig config, HybrisListener extraListener, MetadataStore metadata,
                          boolean ownsMetadata, List<CloudStore> clouds,
                          List<CloudStore> ownedClouds, ValueCache valueCache, boolean ownsValueCache) {
        this.valueCache = valueCache;
        this.ownsValueCache = ownsValueCache;
        this.metadata = metadata;
        this.ownsMetadata = ownsMetadata;
        this.ownedClouds = List.copyOf(ownedClouds);
        String name = "hybris-" + config.clientId() + "-" + INSTANCES.incrementAndGet();
        this.io = Executors.newCachedThreadPool(threads(name + "-io", ownThreads));
        this.metadataCalls = Executors.newCachedThreadPool(threads(name + "-rmds", ownThreads));
        this.gcExecutor = Executors.newFixedThreadPool(2, threads(name + "-gc", ownThreads, gcThreads));
        this.asyncCalls = Executors.newCachedThreadPool(threads(name + "-call", asyncThreads));
        this.engine = new Engine(config, metadata, clouds, io, metadataCalls, gcExecutor, valueCache, extraListener);
        if (!config.sweepInterval().isZero() || !config.probeInterval().isZero()) {
            this.sweeper = Executors.newSingleThreadScheduledExecutor(threads(name + "-maintenance", ownThreads));
        } else {
            this.sweeper = null;
        }
        if (!config.sweepInterval().isZero()) {
            long period = config.sweepInterval().toMillis();
            sweeper.scheduleWithFixedDelay(() -> {
                try {
                    engine.sweep();
                } catch (RuntimeException e) {
                    LOG.warn("periodic orphan sweep failed", e);
                }
            }, period, period, TimeUnit.MILLISECONDS);
        }
        if (!config.scrubInterval().isZero()) {
            // its own thread: a scrub of a large store must not hold up the sweep and the latency probes
            this.scrubber = Executors.newSingleThreadScheduledExecutor(threads(name + "-scrub", ownThreads));
            long period = config.scrubInterval().toMillis();
            scrubber.scheduleWithFixedDelay(() -> {
                try {
                    engine.scrub(ScrubOptions.listing().repair(true));
                } catch (RuntimeException e) {
                    LOG.warn("periodic scrub failed", e);
                }
            }, period, period, TimeUnit.MILLISECONDS);
        } else {
            this.scrubber = null;
        }
        if (config.startupProbe() == StartupProbe.WAIT) {
            probeAtOpen(); // the clouds in parallel, each call bounded by its timer
        }
        this.startupProbe = probesInBackground(config) ? io.submit(this::probeAtOpen) : null;
        if (!config.probeInterval().isZero()) {
            Duration maxAge = config.probeInterval();
            // first run after one interval (nothing is stale before), then twice per interval
            long period = Math.max(1, maxAge.toMillis() / 2);
            sweeper.scheduleWithFixedDelay(() -> {
                try {
                    engine.probeStaleLatencies(maxAge);
                } catch (RuntimeException e) {
                    LOG.warn("latency probe failed", e);
                }
            }, maxAge.toMillis(), period, TimeUnit.MILLISECONDS);
            // clouds probed at open, or moved behind another by live traffic: measured again within seconds
            long recheckTick = Math.max(1, Math.min(period, RECHECK_TICK.toMillis()));
            sweeper.scheduleWithFixedDelay(() -> {
                try {
                    engine.probeLatencyRechecks(maxAge);
                } catch (RuntimeException e) {
                    LOG.warn("latency recheck failed", e);
                }
            }, recheckTick, recheckTick, TimeUnit.MILLISECONDS);
        }
    }

    /** {@code AUTO}'s rule: a background probe when a cloud is reached over the network (made from its type). */
    static boolean probesInBackground(HybrisConfig config) {
        return config.startupProbe() == StartupProbe.AUTO && config.clouds().stream()
                .anyMatch(c -> c.instance().isEmpty() && !StartupProbe.LOCAL_TYPES.contains(c.type()));
    }

    /**
     * Lets a start-up probe still running finish (its calls are bounded by the clouds' timers), so that a client
     * closed right after opening does not leave probe objects behind; gives up after 10 s.
     */
    private void awaitStartupProbe() {
        if (startupProbe == null || startupProbe.isDone()) {
            return;
        }
        try {
            startupProbe.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            LOG.warn("the start-up latency probe was still running at close; a probe object under the prefix's"
                    + " .probe/ may be left behind");
        } catch (java.util.concurrent.ExecutionException e) {
            LOG.debug("the start-up latency probe failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void probeAtOpen() {
        try {
            engine.probeAllLatencies();
        } catch (RuntimeException e) {
            LOG.warn("latency probe at open failed; clouds rank by configuration order until measured", e);
        }
    }

    /**
     * Opens a client: creates (or takes) the metadata store and the clouds (those created from a type start
     * in parallel). If anything fails, whatever was already created is closed again.
     */
    static ClientRuntime open(HybrisConfig config, HybrisListener extraListener) {
        List<CloudStore> clouds;
        List<CloudStore> owned = new ArrayList<>();
        MetadataStore metadata = null;
        boolean ownsMetadata = config.metadataStore().isEmpty();
        ValueCache valueCache = null;
        boolean ownsValueCache = config.cache().type().isPresent();
        CloudOpener opener = new CloudOpener();
        try {
            try {
                clouds = opener.open(config.clouds());
            } finally {
                owned.addAll(opener.created());
            }
            if (ownsMetadata) {
                String type = config.metadataType().orElseThrow();
                metadata = Providers.metadataProvider(type)
                        .create(new ProviderOptions("hybris.rmds." + type + ".", config.metadataOptions()));
            } else {
                metadata = config.metadataStore().get();
            }
            if (ownsValueCache) {
                String type = config.cache().type().get();
                valueCache = Providers.cacheProvider(type)
                        .create(new ProviderOptions("hybris.cache.", config.cache().options()));
            } else {
                valueCache = config.cache().instance().orElse(null);
            }
            ClientRuntime runtime = new ClientRuntime(config, extraListener, metadata, ownsMetadata, clouds, owned,
                    valueCache,
                    ownsValueCache);
            LOG.info("Hybris client {} open: f={}, clouds={}, metadata={}", config.clientId(), config.f(),
                    config.clouds(), metadata.describe());
            return runtime;
        } catch (RuntimeException | Error e) { // an Error too (a driver's missing class): close what was made
            owned.forEach(c -> closeQuietly(c, e));
            if (ownsMetadata && metadata != null) {
                closeQuietly(metadata, e);
            }
            if (ownsValueCache && valueCache != null) {
                closeQuietly(valueCache, e);
            }
            throw e;
        }
    }

    private static void closeQuietly(AutoCloseable c, Throwable primary) {
        try {
            c.close();
        } catch (Exception e) {
            primary.addSuppressed(e);
        }
    }

    /**
     * Stops the maintenance tasks, ends the calls in flight, waits briefly for background garbage collection, then
     * releases threads, the metadata store, the clouds and the value cache this runtime created. A close while
     * another runs returns once that one has released everything, so every close() returns with the client's
     * resources released; except on the closing thread itself (a callback of the close calling it again), which
     * returns at once, on one of the client's own threads (its I/O, metadata, GC, maintenance or subscription
     * threads: a callback there), which returns at once too, as the first close waits for (or ends) that very
     * thread, and on an interrupted thread, which returns at once with its interrupt kept.
     */
    void close() {
        Thread me = Thread.currentThread();
        if (!closer.compareAndSet(null, me)) {
            // a callback on a thread the first close waits for (GC, subscription) used to wait for that close, which
            // waited for it in turn until its timer gave up (10 s, 5 s)
            if (closer.get() != me && !ownThreads.contains(me) && !engine.changeFeed().runsOn(me)) {
                try {
                    released.await();
                } catch (InterruptedException e) {
                    me.interrupt();
                }
            }
            return;
        }
        try {
            release();
        } finally {
            released.countDown();
        }
    }

    private void release() {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
        if (scrubber != null) {
            scrubber.shutdownNow(); // a scrub in flight ends with the client's calls (its state file keeps its page)
        }
        awaitStartupProbe();
        engine.close(); // calls in flight end with ClientClosedException
        // and async calls blocked outside the client (in the caller's stream) are interrupted, as a caller's thread
        // would be: close() used to leave such a call's thread blocked and its future pending forever
        asyncCalls.shutdownNow();
        // a callback of an async call's future closing the client interrupted its own thread just now: it closes
        // the rest as any other thread would, and gets the interrupt back at the end
        boolean asyncHere = asyncThreads.contains(Thread.currentThread()) && Thread.interrupted();
        gcExecutor.shutdown();
        try {
            // not on a GC thread (a GC event's callback closing the client): it waited 10 s for itself
            if (!gcThreads.contains(Thread.currentThread()) && !gcExecutor.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("garbage collection still running at close; the orphan sweep will finish it");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        gcExecutor.shutdownNow();
        engine.abortCloudRequests();
        io.shutdownNow();
        metadataCalls.shutdownNow();
        // on one of the client's own threads (a callback closing the client) the shutdowns above interrupted this
        // very thread: the stores are closed without it (an interrupted ZooKeeper close drops the connection instead
        // of ending the session), and the thread gets its interrupt back afterwards
        boolean interruptedHere = (ownThreads.contains(Thread.currentThread())
                || asyncThreads.contains(Thread.currentThread())) && Thread.interrupted() || asyncHere;
        try {
            closeOwnedStores();
        } finally {
            if (interruptedHere) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void closeOwnedStores() {
        if (ownsMetadata) {
            try {
                metadata.close();
            } catch (RuntimeException e) {
                LOG.warn("closing the metadata store failed", e);
            }
        }
        for (CloudStore c : ownedClouds) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing cloud {} failed", c.id(), e);
            }
        }
        if (ownsValueCache && valueCache != null) {
            try {
                valueCache.close();
            } catch (RuntimeException e) {
                LOG.warn("closing the value cache failed", e);
            }
        }
    }

    /** Daemon threads named {@code prefix-n}, each in {@code live} while it runs. */
    @SafeVarargs
    private static ThreadFactory threads(String prefix, java.util.Set<Thread>... live) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(() -> {
                try {
                    r.run();
                } finally {
                    for (java.util.Set<Thread> s : live) {
                        s.remove(Thread.currentThread());
                    }
                }
            }, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            for (java.util.Set<Thread> s : live) {
                s.add(t);
            }
            return t;
        };
    }

}
