/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

/**
 * How a client orders clouds for writes and reads ({@code hybris.placement}). Whatever the order, a write still
 * needs {@code f+1} distinct clouds (or {@code k+f} for erasure coding), slower clouds still take over when a
 * preferred one misses its timer, and every guarantee holds; only which clouds are asked first changes.
 */
public enum Placement {
    /** Fastest first, by the latency estimates (the paper's §4.4; the default). */
    LATENCY,
    /**
     * Cheapest first among the clouds within the latency objective, then the others fastest first. A write ranks a
     * cloud by its expected cost for the version (the PUT request, storage for the expected lifetime, and the reads
     * expected per write at its GET and egress prices); a read by its GET and egress price.
     */
    COST,
    /**
     * Among the clouds within the latency objective, the lowest sum of cost and latency, each relative to the
     * cheapest and the fastest candidate; then the others fastest first.
     */
    BALANCED
}
