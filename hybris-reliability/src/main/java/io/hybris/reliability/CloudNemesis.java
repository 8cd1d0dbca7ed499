/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.testkit.ByzantineCloudStore;
import io.hybris.testkit.ByzantineCloudStore.Mode;
import io.hybris.testkit.Toxiproxy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Cloud faults, on at most one cloud at a time (f = 1): each step heals the current fault and, most of the time,
 * breaks one cloud in one way — a Byzantine answer from the {@link ByzantineCloudStore} in front of it (corrupt,
 * stale, another key's bytes, truncated, oversized, hanging, a lying listing, down) or a network fault on its
 * toxiproxy proxy (cut off, or 100-400 ms of latency). Dropping acknowledged writes destroys data, so only the
 * last cloud ever does it: one cloud is the faulty one of the fault model for the whole run, and every key keeps
 * a good copy on another cloud.
 */
final class CloudNemesis extends Nemesis {
    private static final Mode[] READ_SIDE = {Mode.CORRUPT, Mode.STALE, Mode.OTHER_KEY, Mode.TRUNCATED,
            Mode.OVERSIZED, Mode.HANG, Mode.LYING_LIST, Mode.DOWN};

    private final List<ByzantineCloudStore> clouds;
    private final List<Toxiproxy.Proxy> proxies;
    private final Tally tally;
    private Runnable undo = () -> { };
    private String undoLabel = "";

    CloudNemesis(List<ByzantineCloudStore> clouds, List<Toxiproxy.Proxy> proxies, Tally tally) {
        super("clouds", Duration.ofMillis(300), Duration.ofMillis(1500));
        this.clouds = clouds;
        this.proxies = proxies;
        this.tally = tally;
    }

    @Override
    synchronized void step(SplittableRandom random) {
        heal();
        if (random.nextInt(5) == 0) {
            return; // a healthy spell
        }
        int cloud = random.nextInt(clouds.size());
        List<String> faults = new ArrayList<>();
        for (Mode m : READ_SIDE) {
            faults.add(m.name());
        }
        if (cloud == clouds.size() - 1) {
            faults.add(Mode.DROP_WRITES.name());
        }
        faults.add("OUTAGE");
        faults.add("LATENCY");
        String fault = faults.get(random.nextInt(faults.size()));
        String id = clouds.get(cloud).id();
        switch (fault) {
            case "OUTAGE" -> {
                Toxiproxy.Proxy p = proxies.get(cloud);
                p.disable();
                undo = p::reset;
            }
            case "LATENCY" -> {
                Toxiproxy.Proxy p = proxies.get(cloud);
                p.latency(Duration.ofMillis(100 + random.nextInt(300)));
                undo = p::reset;
            }
            default -> {
                ByzantineCloudStore c = clouds.get(cloud);
                c.mode(Mode.valueOf(fault));
                undo = () -> c.mode(Mode.HONEST);
            }
        }
        tally.fault("cloud " + fault.toLowerCase().replace('_', ' '));
        undoLabel = id + " " + fault;
    }

    @Override
    synchronized void heal() {
        Runnable u = undo;
        undo = () -> { };
        undoLabel = "";
        u.run();
    }

    @Override
    public String toString() {
        return "CloudNemesis[" + undoLabel + "]";
    }
}
