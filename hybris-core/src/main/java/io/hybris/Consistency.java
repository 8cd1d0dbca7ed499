/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The consistency a GET asks for (paper §3.10). {@link #LINEARIZABLE} is the default and needs no cache; the
 * weaker modes need a value cache ({@code hybris.cache.type}) and trade freshness for skipping the metadata
 * round trip. See {@code docs/cache.md} for exactly what each guarantees and what it does not.
 */
public enum Consistency {
    /** Every GET returns the latest committed value (metadata read, then a hash-checked fetch). The default. */
    LINEARIZABLE,
    /**
     * A GET returns this client instance's own last write of the key (or something newer) without reading
     * metadata when the value is in the cache; other clients' writes may be missed. Per client instance only.
     */
    READ_YOUR_WRITES,
    /**
     * A GET may return a value that was current at most Δ ({@code hybris.cache.staleness.time}) before the read,
     * measured with the writers' and reader's clocks.
     */
    BOUNDED_STALENESS_TIME,
    /**
     * A GET may return one of the η ({@code hybris.cache.staleness.versions}) most recent versions, provided every
     * writer of the key runs with the same η and the cache accepts its writes.
     */
    BOUNDED_STALENESS_VERSIONS;

    /** The property spelling, e.g. {@code read-your-writes}. */
    public String propertyValue() {
        return name().toLowerCase(java.util.Locale.ROOT).replace("bounded_staleness_", "bounded-")
                .replace('_', '-');
    }

    /** Parses the property spelling ({@code linearizable}, {@code read-your-writes}, {@code bounded-time},
     * {@code bounded-versions}). */
    public static Consistency fromProperty(String key, String value) {
        for (Consistency c : values()) {
            if (c.propertyValue().equals(value.trim())) {
                return c;
            }
        }
        throw new HybrisConfigurationException(key + "=" + value + " is unknown; use linearizable,"
                + " read-your-writes, bounded-time or bounded-versions");
    }
}
