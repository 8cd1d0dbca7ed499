/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Runs each {@link Nemesis} on its own thread, stepping it at random intervals, so faults of different kinds
 * overlap (a cloud corrupts while the metadata leader dies while callers are interrupted). {@link #stopAndHeal}
 * stops the threads and heals every nemesis. A nemesis that fails to inject is logged and keeps going.
 */
final class NemesisRunner {
    private static final Logger LOG = LoggerFactory.getLogger(NemesisRunner.class);

    private final List<Nemesis> nemeses;
    private final List<Thread> threads = new ArrayList<>();
    private final Object pause = new Object();
    private volatile boolean running = true;

    NemesisRunner(List<Nemesis> nemeses, long seed) {
        this.nemeses = List.copyOf(nemeses);
        for (int i = 0; i < nemeses.size(); i++) {
            Nemesis n = nemeses.get(i);
            SplittableRandom random = new SplittableRandom(seed * 17 + i);
            Thread t = new Thread(() -> loop(n, random), "nemesis-" + n.name());
            t.setDaemon(true);
            threads.add(t);
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    private void loop(Nemesis n, SplittableRandom random) {
        while (running) {
            long min = n.minPause().toNanos();
            long max = n.maxPause().toNanos();
            long wait = min + (max > min ? random.nextLong(max - min) : 0);
            synchronized (pause) {
                long end = System.nanoTime() + wait;
                long left;
                while (running && (left = end - System.nanoTime()) > 0) {
                    try {
                        TimeUnit.NANOSECONDS.timedWait(pause, left); // the nemesis's schedule; woken by stop
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            if (!running) {
                return;
            }
            try {
                n.step(random);
            } catch (Exception e) {
                LOG.warn("nemesis {} failed to step: {}", n.name(), e.toString());
            }
        }
    }

    /** Stops stepping, waits for each nemesis's current step, then heals them all. */
    void stopAndHeal() throws Exception {
        running = false;
        synchronized (pause) {
            pause.notifyAll();
        }
        for (Thread t : threads) {
            t.join(120_000);
        }
        Exception first = null;
        for (Nemesis n : nemeses) {
            try {
                n.heal();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
