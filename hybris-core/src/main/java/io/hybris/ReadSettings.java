/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.time.Duration;
import java.util.Objects;

/**
 * How a GET races the clouds when the fastest one misbehaves (docs/protocol.md, "Hedged reads and quarantine"): the
 * {@code hybris.get.*} properties. Immutable.
 *
 * <table>
 * <caption>Read keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code hybris.get.hedge}</td><td>true</td><td>a GET asks the next cloud once the cloud it asked has
 *   taken longer than that cloud's observed 95th-percentile read latency (a hedged request), instead of
 *   {@code hybris.timer.multiplier} times its average; a cloud left behind by hedges three times in a row (one that
 *   hangs) counts as failed and sinks in the ranking</td></tr>
 * <tr><td>{@code hybris.get.speculate}</td><td>true</td><td>a GET of a key this client read or wrote before
 *   starts reading the version it saw last while its metadata read runs, and keeps those bytes when the read finds
 *   that version (values stored whole, up to 1 MiB, on clouds reached over a network; not with a value cache),
 *   while at least two thirds of its recent guesses were right; a wrong guess costs one cancelled cloud request. A GET of a chunked value whose manifest is not in memory also
 *   requests its first chunks alongside the manifest</td></tr>
 * <tr><td>{@code hybris.get.hedge.min-delay}</td><td>50ms</td><td>the shortest wait before a hedged request</td></tr>
 * <tr><td>{@code hybris.get.quarantine.after}</td><td>2</td><td>a cloud whose answers failed the hash check this
 *   many times within {@code hybris.get.quarantine.duration} (corrupt, stale or truncated bytes) is quarantined:
 *   asked last by every read and write, whatever its latency, until the duration has passed; 0 turns quarantine
 *   off</td></tr>
 * <tr><td>{@code hybris.get.quarantine.duration}</td><td>5m</td><td>how long a quarantine lasts, and the window
 *   its hash failures are counted in</td></tr>
 * <tr><td>{@code hybris.get.superseded-retention}</td><td>0s</td><td>how long this client's writes leave the version
 *   they replaced (or deleted) on the clouds before collecting it, so that streams of it already under way, in any
 *   client, can finish: a stream of a large value another writer keeps overwriting otherwise fails with
 *   {@code ConcurrentOverwriteException} once its version's chunks are collected. Costs that storage for that long;
 *   a version still waiting when the client closes is left for the orphan sweep, which deletes superseded versions
 *   whatever their age</td></tr>
 * </table>
 *
 * <p>None changes what a GET returns: a quarantined cloud is still asked when the others cannot provide a
 * verified copy, and a hedged request only asks another cloud sooner.
 */
public final class ReadSettings {
    private static final ReadSettings DEFAULTS = builder().build();

    private final boolean hedge;
    private final boolean speculate;
    private final Duration hedgeMinDelay;
    private final int quarantineAfter;
    private final Duration quarantineDuration;
    private final Duration supersededRetention;

    private ReadSettings(Builder b) {
        this.hedge = b.hedge;
        this.speculate = b.speculate;
        this.hedgeMinDelay = b.hedgeMinDelay;
        this.quarantineAfter = b.quarantineAfter;
        this.quarantineDuration = b.quarantineDuration;
        this.supersededRetention = b.supersededRetention;
    }

    /** The defaults: hedged and speculative reads on, quarantine after 2 hash failures within 5 minutes. */
    public static ReadSettings defaults() {
        return DEFAULTS;
    }

    /** A new builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A new builder holding these settings. */
    public Builder toBuilder() {
        return builder().hedge(hedge).speculate(speculate).hedgeMinDelay(hedgeMinDelay)
                .quarantineAfter(quarantineAfter)
                .quarantineDuration(quarantineDuration).supersededRetention(supersededRetention);
    }

    /** Whether GETs send a hedged request after the asked cloud's observed p95 ({@code hybris.get.hedge}). */
    public boolean hedge() {
        return hedge;
    }

    /** Whether a GET starts reading the version last seen during its metadata read ({@code hybris.get.speculate}). */
    public boolean speculate() {
        return speculate;
    }

    /** The shortest wait before a hedged request ({@code hybris.get.hedge.min-delay}). */
    public Duration hedgeMinDelay() {
        return hedgeMinDelay;
    }

    /** Hash failures within the duration that quarantine a cloud; 0 when off ({@code hybris.get.quarantine.after}). */
    public int quarantineAfter() {
        return quarantineAfter;
    }

    /** How long a quarantine lasts, and its counting window ({@code hybris.get.quarantine.duration}). */
    public Duration quarantineDuration() {
        return quarantineDuration;
    }

    /** How long a replaced version stays for reads under way ({@code hybris.get.superseded-retention}). */
    public Duration supersededRetention() {
        return supersededRetention;
    }

    @Override
    public String toString() {
        return "ReadSettings[hedge=" + hedge + ", speculate=" + speculate + ", hedgeMinDelay=" + hedgeMinDelay
                + ", quarantineAfter="
                + quarantineAfter + ", quarantineDuration=" + quarantineDuration + ", supersededRetention="
                + supersededRetention + "]";
    }

    /** Builds {@link ReadSettings}; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private boolean hedge = true;
        private boolean speculate = true;
        private Duration hedgeMinDelay = Duration.ofMillis(50);
        private int quarantineAfter = 2;
        private Duration quarantineDuration = Duration.ofMinutes(5);
        private Duration supersededRetention = Duration.ZERO;

        private Builder() {
        }

        /** Hedged GETs on or off ({@code hybris.get.hedge}). */
        public Builder hedge(boolean hedge) {
            this.hedge = hedge;
            return this;
        }

        /** Speculative reads on or off ({@code hybris.get.speculate}). */
        public Builder speculate(boolean speculate) {
            this.speculate = speculate;
            return this;
        }

        /** The shortest wait before a hedged request ({@code hybris.get.hedge.min-delay}). */
        public Builder hedgeMinDelay(Duration delay) {
            this.hedgeMinDelay = Objects.requireNonNull(delay, "delay");
            return this;
        }

        /** Hash failures within the duration that quarantine a cloud; 0: off ({@code hybris.get.quarantine.after}). */
        public Builder quarantineAfter(int failures) {
            this.quarantineAfter = failures;
            return this;
        }

        /** How long a quarantine lasts ({@code hybris.get.quarantine.duration}). */
        public Builder quarantineDuration(Duration duration) {
            this.quarantineDuration = Objects.requireNonNull(duration, "duration");
            return this;
        }

        /** How long a replaced version stays for reads under way ({@code hybris.get.superseded-retention}). */
        public Builder supersededRetention(Duration retention) {
            this.supersededRetention = Objects.requireNonNull(retention, "retention");
            return this;
        }

        /** Validates and builds. */
        public ReadSettings build() {
            if (hedgeMinDelay.isNegative()) {
                throw new HybrisConfigurationException("hybris.get.hedge.min-delay=" + hedgeMinDelay
                        + " must not be negative");
            }
            if (quarantineAfter < 0) {
                throw new HybrisConfigurationException("hybris.get.quarantine.after=" + quarantineAfter
                        + " must be 0 (off) or a number of hash failures");
            }
            if (quarantineDuration.isNegative() || quarantineDuration.isZero()) {
                throw new HybrisConfigurationException("hybris.get.quarantine.duration=" + quarantineDuration
                        + " must be positive; turn quarantine off with hybris.get.quarantine.after=0");
            }
            if (supersededRetention.isNegative() || supersededRetention.compareTo(Duration.ofDays(1)) > 0) {
                throw new HybrisConfigurationException("hybris.get.superseded-retention=" + supersededRetention
                        + " must be between 0 (collect at once) and 1d");
            }
            return new ReadSettings(this);
        }
    }
}
