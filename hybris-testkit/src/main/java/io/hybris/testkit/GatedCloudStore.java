/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Holds chosen writes at a gate, so a test can freeze a protocol step at an exact point (a PUT whose uploads
 * have not landed yet) and release it when it is ready: a put whose object key matches blocks, before it
 * reaches the delegate, until {@link #open()} is called; other calls pass. {@link #awaitBlocked} lets the test
 * wait until the expected puts are held. Once opened the gate stays open. Turning the fault off with
 * {@code setActive(false)} also releases held puts.
 *
 * <p>A held put is interruptible: the caller gets a {@link TransientCloudException} with its interrupt flag
 * restored. Thread-safe.
 *
 * <pre>{@code
 * GatedCloudStore gate = GatedCloudStore.of(new InMemoryCloudStore("c1"), key -> key.contains("#"));
 * CompletableFuture<Void> put = CompletableFuture.runAsync(() -> hybris.put("c", "k", v));
 * assertThat(gate.awaitBlocked(1, Duration.ofSeconds(10))).isTrue();
 * // ... observe the state while the upload is held ...
 * gate.open();
 * put.join();
 * }</pre>
 */
public final class GatedCloudStore extends FaultInjectingCloudStore {
    private final Predicate<String> objectKeyMatcher;
    private final Object monitor = new Object();
    private boolean open;
    private int blocked;

    private GatedCloudStore(CloudStore delegate, Predicate<String> objectKeyMatcher) {
        super(delegate);
        this.objectKeyMatcher = objectKeyMatcher;
    }

    /** A view of {@code delegate} that holds puts whose object key matches {@code objectKeyMatcher}. */
    public static GatedCloudStore of(CloudStore delegate, Predicate<String> objectKeyMatcher) {
        Objects.requireNonNull(delegate, "delegate must not be null");
        Objects.requireNonNull(objectKeyMatcher, "objectKeyMatcher must not be null");
        return new GatedCloudStore(delegate, objectKeyMatcher);
    }

    /** Opens the gate for good: held puts proceed, later ones pass. */
    public void open() {
        synchronized (monitor) {
            open = true;
            monitor.notifyAll();
        }
    }

    /** Whether {@link #open()} was called. */
    public boolean isOpen() {
        synchronized (monitor) {
            return open;
        }
    }

    /** How many puts are held right now. */
    public int blockedCount() {
        synchronized (monitor) {
            return blocked;
        }
    }

    /**
     * Waits until at least {@code count} puts are held at the gate.
     *
     * @return true once they are, false if {@code timeout} passed first
     * @throws IllegalStateException if the waiting thread is interrupted (its flag is restored)
     */
    public boolean awaitBlocked(int count, Duration timeout) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        Objects.requireNonNull(timeout, "timeout must not be null");
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (monitor) {
            try {
                long left;
                while (blocked < count) {
                    left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    monitor.wait(left / 1_000_000, (int) (left % 1_000_000));
                }
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while awaiting " + count + " blocked puts", e);
            }
        }
    }

    @Override
    protected void onDeactivated() {
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    @Override
    public void put(String objectKey, byte[] value) {
        if (isActive() && objectKeyMatcher.test(objectKey)) {
            hold(objectKey);
        }
        super.put(objectKey, value);
    }

    private void hold(String objectKey) {
        synchronized (monitor) {
            if (open) {
                return;
            }
            blocked++;
            monitor.notifyAll();
            try {
                while (isActive() && !open) {
                    monitor.wait();
                }
                // interrupted and then notified before it woke, wait() returns normally with the flag set: the put
                // must fail all the same, or a put interrupted while held lands once the gate opens
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransientCloudException(id(), "put of '" + objectKey
                        + "' interrupted while held by the injected gate", e);
            } finally {
                blocked--;
            }
        }
    }
}
