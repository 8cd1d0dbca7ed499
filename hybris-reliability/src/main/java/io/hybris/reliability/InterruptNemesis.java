/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Interrupts a random worker thread at a random moment — in an upload, a read, a metadata update or between
 * calls — as {@code Future.cancel(true)} or {@code ExecutorService.shutdownNow()} do to callers.
 */
final class InterruptNemesis extends Nemesis {
    private final List<Thread> workers;
    private final Tally tally;

    InterruptNemesis(List<Thread> workers, Tally tally) {
        super("interrupts", Duration.ofMillis(20), Duration.ofMillis(250));
        this.workers = workers;
        this.tally = tally;
    }

    @Override
    void step(SplittableRandom random) {
        workers.get(random.nextInt(workers.size())).interrupt();
        tally.fault("caller interrupted");
    }

    @Override
    void heal() {
        // an interrupt has no lasting effect to undo
    }
}
