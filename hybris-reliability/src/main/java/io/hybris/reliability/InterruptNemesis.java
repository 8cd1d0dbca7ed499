package io.hybris.reliability;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Interrupts a random worker thread at a random moment — in an upload, a read, a metadata update or between
 * calls — as {@code Future.cancel(true)} or {@code ExecutorService.shutdownNow()} do to callers.
 */
final class InterruptNemesis implements Nemesis {
    private final List<Thread> workers;
    private final Tally tally;

    InterruptNemesis(List<Thread> workers, Tally tally) {
        this.workers = workers;
        this.tally = tally;
    }

    @Override
    public String name() {
        return "interrupts";
    }

    @Override
    public Duration minPause() {
        return Duration.ofMillis(20);
    }

    @Override
    public Duration maxPause() {
        return Duration.ofMillis(250);
    }

    @Override
    public void step(SplittableRandom random) {
        workers.get(random.nextInt(workers.size())).interrupt();
        tally.fault("caller interrupted");
    }

    @Override
    public void heal() {
        // an interrupt has no lasting effect to undo
    }
}
