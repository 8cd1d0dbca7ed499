/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.spi.CloudStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A nemesis for concurrency tests (a rotating cloud fault): wraps each cloud in switchable fault decorators, all off at first
 * ({@link UnavailableCloudStore}, {@link SlowCloudStore} of every operation, {@link StaleCloudStore},
 * {@link CorruptingCloudStore}), and while running moves a fault from cloud to cloud: every few milliseconds
 * (a random pause of up to {@code maxPause}) it switches the current fault off, then a randomly chosen fault on
 * a randomly chosen cloud on. Off comes before on, so at no instant is more than one cloud faulty (f=1). Every
 * cloud is faulty at some time; none keeps damage when its fault ends (the decorators only fail, delay or
 * falsify calls while on).
 *
 * <pre>{@code
 * try (RotatingCloudFaults nemesis = RotatingCloudFaults.over(clouds, seed, Duration.ofMillis(30))) {
 *     Hybris h = Hybris.open(config(nemesis.clouds())...build());
 *     nemesis.start();
 *     ... run the workload ...
 *     int injected = nemesis.stop(); // every fault off again
 * }
 * }</pre>
 *
 * <p>{@link #start}, {@link #stop} and {@link #close} are for the test's thread; the switching happens on the
 * nemesis's own daemon thread.
 */
public final class RotatingCloudFaults implements AutoCloseable {
    /** How long a slow cloud would hold a call; in practice the nemesis moves on (and releases it) far sooner. */
    private static final Duration SLOWNESS = Duration.ofSeconds(1);

    private final List<CloudStore> clouds = new ArrayList<>();
    private final List<List<FaultInjectingCloudStore>> faults = new ArrayList<>();
    private final Random random;
    private final long maxPauseMillis;
    private final AtomicInteger injected = new AtomicInteger();
    private volatile boolean running;
    private Thread thread;

    private RotatingCloudFaults(List<? extends CloudStore> raw, long seed, Duration maxPause) {
        if (maxPause.toMillis() < 1) {
            throw new IllegalArgumentException("maxPause must be at least 1 ms, got " + maxPause);
        }
        this.random = new Random(seed);
        this.maxPauseMillis = maxPause.toMillis();
        for (CloudStore cloud : raw) {
            UnavailableCloudStore unavailable = UnavailableCloudStore.of(cloud);
            SlowCloudStore slow = SlowCloudStore.of(unavailable, SLOWNESS);
            StaleCloudStore stale = StaleCloudStore.of(slow);
            CorruptingCloudStore corrupting = CorruptingCloudStore.of(stale);
            List<FaultInjectingCloudStore> own = List.of(unavailable, slow, stale, corrupting);
            own.forEach(f -> f.setActive(false));
            faults.add(own);
            clouds.add(corrupting);
        }
    }

    /**
     * A nemesis over {@code clouds} (undecorated), every fault off, not yet running.
     *
     * @param seed     seeds the choice of fault, cloud and pause
     * @param maxPause the longest time one fault stays on (each pause is uniform in 1 ms .. {@code maxPause})
     */
    public static RotatingCloudFaults over(List<? extends CloudStore> clouds, long seed, Duration maxPause) {
        return new RotatingCloudFaults(clouds, seed, maxPause);
    }

    /** The decorated clouds, in the order given: open the clients under test over these. */
    public List<CloudStore> clouds() {
        return List.copyOf(clouds);
    }

    /** Starts switching faults. */
    public synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        running = true;
        thread = new Thread(this::run, "hybris-nemesis");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops switching, switches every fault off and returns {@link #injected()}. */
    public synchronized int stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.interrupt();
            thread.join();
        }
        healAll();
        return injected();
    }

    /** How many times a fault was switched on. */
    public int injected() {
        return injected.get();
    }

    /** {@link #stop()}, keeping the caller's interrupt status if interrupted. */
    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            healAll();
        }
    }

    private void run() {
        FaultInjectingCloudStore current = null;
        try {
            while (running) {
                List<FaultInjectingCloudStore> cloud = faults.get(random.nextInt(faults.size()));
                FaultInjectingCloudStore next = cloud.get(random.nextInt(cloud.size()));
                if (current != null) {
                    current.setActive(false); // first off, then on: never two faulty clouds at once
                }
                next.setActive(true);
                injected.incrementAndGet();
                current = next;
                Thread.sleep(1 + random.nextInt((int) Math.min(Integer.MAX_VALUE, maxPauseMillis)));
            }
        } catch (InterruptedException e) {
            // stop() asked us to end
        } finally {
            if (current != null) {
                current.setActive(false);
            }
        }
    }

    private void healAll() {
        faults.forEach(own -> own.forEach(f -> f.setActive(false)));
    }
}
