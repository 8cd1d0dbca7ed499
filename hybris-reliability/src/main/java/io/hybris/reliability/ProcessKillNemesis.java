/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A client in its own JVM writing the campaign's keys, killed with SIGKILL at a random moment (mid-PUT or
 * mid-TPUT) and replaced by a new one. Its calls go straight to the emulators through toxiproxy, so cloud
 * outages and leader kills hit it too.
 */
final class ProcessKillNemesis extends Nemesis {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessKillNemesis.class);
    private final Map<String, String> properties;
    private final List<String> keys;
    private final String idPrefix;
    private final Recorder recorder;
    private final Tally tally;
    private final Path workDir;
    private final AtomicInteger generation;
    private ChildClient child;

    ProcessKillNemesis(Map<String, String> properties, List<String> keys, String idPrefix, Recorder recorder,
                       Tally tally, Path workDir, AtomicInteger generation, long seed) {
        super("kill-jvm", Duration.ofSeconds(2), Duration.ofSeconds(6));
        this.properties = properties;
        this.keys = keys;
        this.idPrefix = idPrefix;
        this.recorder = recorder;
        this.tally = tally;
        this.workDir = workDir;
        this.generation = generation;
        this.child = spawnOrNull(seed);
    }

    /** A new child, or null if it failed to start three times (the next step tries again). */
    private ChildClient spawnOrNull(long seed) {
        try {
            return spawn(seed);
        } catch (IllegalStateException e) {
            return null;
        }
    }

    /**
     * Starts a child JVM; a start that fails (the child could not open its client, e.g. while its metadata
     * server is being restarted or an emulator is overloaded) is counted and retried up to three times.
     */
    private ChildClient spawn(long seed) {
        IllegalStateException failure = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int g = generation.incrementAndGet();
            try {
                return ChildClient.start(properties, keys, idPrefix + "j" + g + "-", seed, 1000 + g, recorder,
                        workDir);
            } catch (IllegalStateException e) {
                LOG.warn("campaign child JVM {} failed to start: {}", 1000 + g, e.getMessage());
                tally.fault("client JVM failed to start");
                failure = failure == null ? e : failure;
            }
        }
        throw failure;
    }

    @Override
    synchronized void step(SplittableRandom random) throws InterruptedException {
        if (child != null) {
            child.kill();
            tally.fault("client JVM killed (SIGKILL)");
        }
        child = spawnOrNull(random.nextLong());
    }

    /** Kills the last child (its unanswered calls become unknown-outcome writes). */
    @Override
    synchronized void heal() throws InterruptedException {
        if (child != null) {
            child.kill();
        }
    }
}
