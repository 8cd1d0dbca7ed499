/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A slow cloud: while active, the chosen operations ({@link #of all}, {@link #ofGets gets} or
 * {@link #ofPuts puts}) wait for a fixed delay before they reach the delegate. The wait is interruptible:
 * an interrupted caller gets a {@link TransientCloudException} naming the injected slowness, with its
 * interrupt flag restored, exactly as a well-behaved store answers an interrupt. Turning the fault off with
 * {@code setActive(false)} also releases calls that are waiting.
 *
 * <p>Thread-safe; the delay is measured with {@link System#nanoTime()}.
 *
 * <pre>{@code
 * SlowCloudStore slow = SlowCloudStore.ofGets(new InMemoryCloudStore("c1"), Duration.ofSeconds(5));
 * }</pre>
 */
public final class SlowCloudStore extends FaultInjectingCloudStore {
    private enum Op { PUT, GET, LIST, DELETE }

    private final Duration delay;
    private final Set<Op> delayed;
    private final Object monitor = new Object();

    private SlowCloudStore(CloudStore delegate, Duration delay, Set<Op> delayed) {
        super(delegate);
        this.delay = delay;
        this.delayed = delayed;
    }

    /** Delays every operation (put, get, list, delete) by {@code delay}. */
    public static SlowCloudStore of(CloudStore delegate, Duration delay) {
        return create(delegate, delay, EnumSet.allOf(Op.class));
    }

    /** Delays only gets by {@code delay}. */
    public static SlowCloudStore ofGets(CloudStore delegate, Duration delay) {
        return create(delegate, delay, EnumSet.of(Op.GET));
    }

    /** Delays only puts by {@code delay}. */
    public static SlowCloudStore ofPuts(CloudStore delegate, Duration delay) {
        return create(delegate, delay, EnumSet.of(Op.PUT));
    }

    private static SlowCloudStore create(CloudStore delegate, Duration delay, Set<Op> ops) {
        Objects.requireNonNull(delegate, "delegate must not be null");
        Objects.requireNonNull(delay, "delay must not be null");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, got " + delay);
        }
        return new SlowCloudStore(delegate, delay, Set.copyOf(ops));
    }

    /** The injected delay. */
    public Duration delay() {
        return delay;
    }

    @Override
    protected void onDeactivated() {
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    @Override
    public void put(String objectKey, byte[] value) {
        pause(Op.PUT, objectKey);
        super.put(objectKey, value);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        pause(Op.GET, objectKey);
        return super.get(objectKey, maxBytes);
    }

    @Override
    public List<CloudObject> list(String prefix) {
        pause(Op.LIST, prefix);
        return super.list(prefix);
    }

    @Override
    public void delete(String objectKey) {
        pause(Op.DELETE, objectKey);
        super.delete(objectKey);
    }

    private void pause(Op op, String objectKey) {
        if (!isActive() || !delayed.contains(op)) {
            return;
        }
        long start = System.nanoTime();
        long total = delay.toNanos();
        synchronized (monitor) {
            try {
                long left;
                boolean waited = false;
                while (isActive() && (left = total - (System.nanoTime() - start)) > 0) {
                    monitor.wait(left / 1_000_000, (int) (left % 1_000_000));
                    waited = true;
                }
                if (waited && Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException(); // interrupted, then released before it woke (JLS 17.2.4)
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransientCloudException(id(), op.name().toLowerCase(java.util.Locale.ROOT) + " of '"
                        + objectKey + "' interrupted during the injected slowness of " + delay, e);
            }
        }
    }
}
