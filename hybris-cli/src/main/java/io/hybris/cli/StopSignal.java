/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a command that runs until stopped ({@code serve}, {@code gateway}) stops cleanly on SIGTERM or Ctrl-C. The JVM
 * runs its shutdown hooks and then halts, whatever other threads are doing, so a hook that only woke the command would
 * let the JVM halt in the middle of its stop: requests cut off, the client and the embedded ZooKeeper never closed.
 * This hook wakes the command and then waits, at most the grace period, until the command has {@link #close()
 * closed} what it serves and its client. The exit status is then the JVM's for the signal (143 for SIGTERM, 130 for
 * Ctrl-C).
 */
final class StopSignal implements AutoCloseable {
    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread hook;

    private StopSignal(String name, Duration grace) {
        hook = new Thread(() -> {
            requested.countDown();
            try {
                stopped.await(grace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
    }

    /** Installs the hook; the JVM waits at most {@code grace} for the command's stop once signalled. */
    static StopSignal install(String name, Duration grace) {
        StopSignal s = new StopSignal(name, grace);
        Runtime.getRuntime().addShutdownHook(s.hook);
        return s;
    }

    /** Waits until the process is signalled to stop. */
    void await() throws InterruptedException {
        requested.await();
    }

    /** The command has stopped: the JVM may halt (or, if it was not signalled, the hook is removed). */
    @Override
    public void close() {
        stopped.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it returns now
        }
    }
}
