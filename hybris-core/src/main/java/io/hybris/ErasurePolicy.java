/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.util.Locale;

/** How values are spread over clouds ({@code hybris.erasure.policy}). */
public enum ErasurePolicy {
    /** {@code f+1} full copies on {@code f+1} clouds (the paper's default). */
    REPLICATION,
    /** {@code k} data and {@code f} parity chunks, one per cloud on {@code k+f} clouds (paper §3.9). */
    ERASURE,
    /** Erasure coding for stored values of at least the threshold, replication below it. */
    THRESHOLD;

    /** The property value, e.g. {@code threshold}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a property value; {@code key} names the property in the error. */
    public static ErasurePolicy parse(String key, String value) {
        return io.hybris.spi.support.ConfigValues.parseChoice(key, value, values(), ErasurePolicy::value,
                "a policy", "replication, erasure or threshold");
    }
}
