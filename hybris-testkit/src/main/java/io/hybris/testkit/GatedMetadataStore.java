/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;

import java.time.Duration;
import java.util.List;

/**
 * Holds conditional updates at a gate, to freeze a write exactly while its metadata update is "on the wire":
 * a held update has been sent but not yet applied. Holding is <em>not</em> interruptible — interrupting the
 * thread that sent a request does not recall it — so a test can interrupt the caller or close the client while
 * the update is held, then {@link #open()} the gate and watch the update commit anyway. Both
 * {@link #conditionalUpdate} and {@link #conditionalUpdateAll} are held; reads pass. Thread-safe.
 *
 * <pre>{@code
 * GatedMetadataStore gate = new GatedMetadataStore(store);
 * Thread writer = new Thread(() -> hybris.put("c", "k", v));
 * writer.start();
 * assertThat(gate.awaitHeld(1, Duration.ofSeconds(10))).isTrue();
 * writer.interrupt();          // the caller gives up; the update is already sent
 * gate.open();                 // ... and lands
 * }</pre>
 */
public final class GatedMetadataStore extends ForwardingMetadataStore {
    private final Object monitor = new Object();
    private boolean open;
    private int held;
    private int passed;
    private final List<Exception> failures = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Holds the conditional updates sent to {@code delegate} until {@link #open()}. */
    public GatedMetadataStore(MetadataStore delegate) {
        super(delegate);
    }

    @Override
    public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
        boolean interrupted = hold();
        try {
            delegate().conditionalUpdate(update);
        } catch (RuntimeException | VersionConflictException e) {
            failures.add(e);
            throw e;
        } finally {
            passed(interrupted);
        }
    }

    @Override
    public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
        boolean interrupted = hold();
        try {
            delegate().conditionalUpdateAll(updates);
        } catch (RuntimeException | VersionConflictException e) {
            failures.add(e);
            throw e;
        } finally {
            passed(interrupted);
        }
    }

    /** Opens the gate for good: held updates are applied, later ones pass. */
    public void open() {
        synchronized (monitor) {
            open = true;
            monitor.notifyAll();
        }
    }

    /**
     * Waits until at least {@code count} updates are held.
     *
     * @return true once they are, false if {@code timeout} passed first
     */
    public boolean awaitHeld(int count, Duration timeout) {
        return await(() -> held >= count, timeout);
    }

    /** What the held updates that went through and failed threw, in order (a test asserts it is empty). */
    public List<Exception> failures() {
        return List.copyOf(failures);
    }

    /**
     * Waits until at least {@code count} held updates went through to the delegate (applied or refused) after
     * {@link #open()}.
     *
     * @return true once they did, false if {@code timeout} passed first
     */
    public boolean awaitPassed(int count, Duration timeout) {
        return await(() -> passed >= count, timeout);
    }

    private boolean await(java.util.function.BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (monitor) {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    monitor.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting at the metadata gate", e);
                }
            }
            return true;
        }
    }

    /** Holds the calling thread until the gate opens; returns whether it was interrupted meanwhile. */
    private boolean hold() {
        boolean interrupted = false;
        synchronized (monitor) {
            held++;
            monitor.notifyAll();
            while (!open) {
                try {
                    monitor.wait();
                } catch (InterruptedException e) {
                    interrupted = true; // a request on the wire is not recalled by interrupting its sender
                }
            }
        }
        // a thread both notified and interrupted may return from wait() with the interrupt still pending (JLS 17.2.4)
        return Thread.interrupted() || interrupted;
    }

    /** Counts a held update as gone through and restores an interrupt that arrived while it was held. */
    private void passed(boolean interrupted) {
        synchronized (monitor) {
            passed++;
            monitor.notifyAll();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
