/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import java.time.Duration;
import java.util.SplittableRandom;

/** Closes a shared client while its threads have calls in flight, and puts a fresh client in its place. */
final class CloseNemesis extends Nemesis {
    private final ClientPool clients;
    private final Tally tally;

    CloseNemesis(ClientPool clients, Tally tally) {
        super("close", Duration.ofSeconds(1), Duration.ofSeconds(4));
        this.clients = clients;
        this.tally = tally;
    }

    @Override
    void step(SplittableRandom random) {
        clients.replace(random.nextInt(clients.size()));
        tally.fault("client closed mid-flight");
    }

    @Override
    void heal() {
        // the replacement client is already in place
    }
}
