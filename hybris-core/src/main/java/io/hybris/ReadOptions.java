/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.Objects;

/**
 * Per-call options of a GET ({@link Hybris#get(String, String, ReadOptions)}): which {@link Consistency} this read
 * asks for, overriding the client's default ({@code hybris.cache.consistency}). Immutable.
 */
public final class ReadOptions {
    private static final ReadOptions LINEARIZABLE = new ReadOptions(Consistency.LINEARIZABLE);
    private static final ReadOptions READ_YOUR_WRITES = new ReadOptions(Consistency.READ_YOUR_WRITES);
    private static final ReadOptions BOUNDED_TIME = new ReadOptions(Consistency.BOUNDED_STALENESS_TIME);
    private static final ReadOptions BOUNDED_VERSIONS = new ReadOptions(Consistency.BOUNDED_STALENESS_VERSIONS);

    private final Consistency consistency;

    private ReadOptions(Consistency consistency) {
        this.consistency = Objects.requireNonNull(consistency, "consistency");
    }

    /** A linearizable read (the default without a cache). */
    public static ReadOptions linearizable() {
        return LINEARIZABLE;
    }

    /** A read-your-writes read. */
    public static ReadOptions readYourWrites() {
        return READ_YOUR_WRITES;
    }

    /** A read at most Δ stale ({@code hybris.cache.staleness.time}). */
    public static ReadOptions boundedStalenessTime() {
        return BOUNDED_TIME;
    }

    /** A read at most η versions stale ({@code hybris.cache.staleness.versions}). */
    public static ReadOptions boundedStalenessVersions() {
        return BOUNDED_VERSIONS;
    }

    /** Options for {@code consistency}. */
    public static ReadOptions of(Consistency consistency) {
        return switch (Objects.requireNonNull(consistency, "consistency")) {
            case LINEARIZABLE -> LINEARIZABLE;
            case READ_YOUR_WRITES -> READ_YOUR_WRITES;
            case BOUNDED_STALENESS_TIME -> BOUNDED_TIME;
            case BOUNDED_STALENESS_VERSIONS -> BOUNDED_VERSIONS;
        };
    }

    /** The consistency asked for. */
    public Consistency consistency() {
        return consistency;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReadOptions r && r.consistency == consistency;
    }

    @Override
    public int hashCode() {
        return consistency.hashCode();
    }

    @Override
    public String toString() {
        return "ReadOptions[" + consistency + "]";
    }
}
