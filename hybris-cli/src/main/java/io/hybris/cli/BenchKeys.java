/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.Hybris;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The keys a {@code bench} run writes, deleted when it ends, also when it is stopped (Ctrl-C, SIGTERM): the JVM's
 * shutdown hook calls {@link #stop()}, which waits for the request in flight (a PUT whose key is deleted before it
 * commits would stay), keeps the run from starting another, and deletes every key written. Thread-safe.
 */
final class BenchKeys {
    private final Hybris hybris;
    private final String container;
    private final List<String> keys = new ArrayList<>();
    private boolean stopped;

    BenchKeys(Hybris hybris, String container) {
        this.hybris = hybris;
        this.container = container;
    }

    /** Runs {@code request} (recording {@code key}, if not null, as written) unless stopped; how long it took. */
    synchronized Duration timed(String key, Runnable request) {
        if (stopped) {
            throw new CliException(ExitCode.OTHER, "bench stopped");
        }
        if (key != null) {
            keys.add(key);
        }
        long t0 = System.nanoTime();
        request.run();
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Stops the run after its request in flight, and deletes its keys. */
    synchronized void stop() {
        stopped = true;
        try {
            deleteAll();
        } catch (RuntimeException e) {
            // the process is exiting: what could not be deleted stays (as a run whose deletes failed leaves it)
        }
    }

    /** Deletes every key written (once). */
    synchronized void deleteAll() {
        while (!keys.isEmpty()) {
            hybris.delete(container, keys.remove(keys.size() - 1));
        }
    }
}
