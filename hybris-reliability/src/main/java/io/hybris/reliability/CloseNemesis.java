package io.hybris.reliability;

import java.time.Duration;
import java.util.SplittableRandom;

/** Closes a shared client while its threads have calls in flight, and puts a fresh client in its place. */
final class CloseNemesis implements Nemesis {
    private final ClientPool clients;
    private final Tally tally;

    CloseNemesis(ClientPool clients, Tally tally) {
        this.clients = clients;
        this.tally = tally;
    }

    @Override
    public String name() {
        return "close";
    }

    @Override
    public Duration minPause() {
        return Duration.ofSeconds(1);
    }

    @Override
    public Duration maxPause() {
        return Duration.ofSeconds(4);
    }

    @Override
    public void step(SplittableRandom random) {
        clients.replace(random.nextInt(clients.size()));
        tally.fault("client closed mid-flight");
    }

    @Override
    public void heal() {
        // the replacement client is already in place
    }
}
