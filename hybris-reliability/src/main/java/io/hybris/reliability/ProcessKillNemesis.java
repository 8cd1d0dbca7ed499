package io.hybris.reliability;

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
        this.child = spawn(seed);
    }

    private ChildClient spawn(long seed) {
        int g = generation.incrementAndGet();
        return ChildClient.start(properties, keys, idPrefix + "j" + g + "-", seed, 1000 + g, recorder, workDir);
    }

    @Override
    synchronized void step(SplittableRandom random) throws InterruptedException {
        child.kill();
        tally.fault("client JVM killed (SIGKILL)");
        child = spawn(random.nextLong());
    }

    /** Kills the last child (its unanswered calls become unknown-outcome writes). */
    @Override
    synchronized void heal() throws InterruptedException {
        child.kill();
    }
}
