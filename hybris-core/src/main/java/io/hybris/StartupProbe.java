/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.spi.support.ConfigValues;

import java.util.Locale;
import java.util.Set;

/**
 * Whether a client measures its clouds' latencies when it opens ({@code hybris.ranking.probe-on-open}), so that its
 * first reads and writes go to the fastest clouds rather than to the first ones in configuration order (ids sorted,
 * from a properties file). A probe writes, reads back and deletes one small object per cloud, all clouds in parallel,
 * each call bounded by its timer (docs/protocol.md, "Latency ranking").
 */
public enum StartupProbe {
    /**
     * The default ({@code auto}): measure in the background right after opening when a cloud is reached over the
     * network (created by a provider type other than {@code memory} and {@code directory}); opening does not wait,
     * and calls made before the probe ends use the configuration order. Clouds supplied as instances and local
     * clouds are not probed, so tests and embedded setups keep a deterministic order.
     */
    AUTO,
    /** Measure every cloud while opening ({@code true}): opening waits for the probe, the paper's start-up ranking. */
    WAIT,
    /** No probe at open ({@code false}): traffic and the periodic probe measure the clouds. */
    OFF;

    /** Provider types whose clouds answer in microseconds: nothing to rank at start-up. */
    static final Set<String> LOCAL_TYPES = Set.of("memory", "directory");

    /** The property value: {@code auto}, {@code true} or {@code false}. */
    public String value() {
        return switch (this) {
            case AUTO -> "auto";
            case WAIT -> "true";
            case OFF -> "false";
        };
    }

    /** Parses a property value; {@code key} names the property in the error. */
    public static StartupProbe parse(String key, String value) {
        return ConfigValues.parseChoice(key, value.trim().toLowerCase(Locale.ROOT), values(), StartupProbe::value,
                "a start-up probe setting", "auto (background probe for network clouds), true (open waits for the"
                        + " probe) or false");
    }
}
