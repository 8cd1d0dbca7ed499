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

    /**
     * Stops stepping and heals each nemesis as soon as its current step is over, not after every other's: a step
     * may be waiting on another nemesis's fault (a client opening against a killed Consul agent waits, up to its
     * start timeout, for that agent's restart). A step still running after 120 s is healed over.
     */
    void stopAndHeal() throws Exception {
        running = false;
        synchronized (pause) {
            pause.notifyAll();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        boolean[] healed = new boolean[nemeses.size()];
        int left = nemeses.size();
        Exception first = null;
        while (left > 0) {
            boolean late = System.nanoTime() > deadline;
            for (int i = 0; i < nemeses.size(); i++) {
                if (healed[i] || threads.get(i).isAlive() && !late) {
                    continue;
                }
                healed[i] = true;
                left--;
                try {
                    nemeses.get(i).heal();
                } catch (Exception e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            for (int i = 0; i < nemeses.size() && left > 0; i++) {
                if (!healed[i]) {
                    threads.get(i).join(50); // the next poll: when a step ends, or soon after
                    break;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
