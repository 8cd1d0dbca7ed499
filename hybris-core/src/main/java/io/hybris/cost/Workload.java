/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

/**
 * A month of use, for the {@link CostEstimator}: operations of one value size, the bytes stored, and how Hybris
 * would cut large values. Immutable.
 *
 * @param putsPerMonth      PUTs
 * @param getsPerMonth      GETs
 * @param deletesPerMonth   DELETEs
 * @param valueBytes        the size of each value
 * @param storedBytes       the user bytes stored through the month (before replication or coding)
 * @param overwriteFraction the share of PUTs that replace an existing version (whose copies are then deleted)
 * @param chunkSize         values of at least this many bytes are stored in chunks of it plus a manifest
 *                          ({@code hybris.chunk.size}, {@code hybris.chunk.threshold}); 0 = never
 */
public record Workload(double putsPerMonth, double getsPerMonth, double deletesPerMonth, double valueBytes,
                       double storedBytes, double overwriteFraction, long chunkSize) {
    public Workload {
        for (double v : new double[] {putsPerMonth, getsPerMonth, deletesPerMonth, valueBytes, storedBytes}) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("workload figures must be finite and >= 0: " + v);
            }
        }
        if (!(overwriteFraction >= 0 && overwriteFraction <= 1) || chunkSize < 0) {
            throw new IllegalArgumentException("overwriteFraction must be in [0, 1] and chunkSize >= 0");
        }
    }

    /** PUTs and GETs of {@code valueBytes}, {@code storedBytes} stored, no overwrites or deletions, no chunking. */
    public static Workload of(double puts, double gets, double valueBytes, double storedBytes) {
        return new Workload(puts, gets, 0, valueBytes, storedBytes, 0, 0);
    }

    /** This workload with values chunked as Hybris's defaults do ({@code chunkSize} bytes). */
    public Workload chunked(long chunkSize) {
        return new Workload(putsPerMonth, getsPerMonth, deletesPerMonth, valueBytes, storedBytes, overwriteFraction,
                chunkSize);
    }

    /** This workload with {@code fraction} of its PUTs replacing a version and {@code deletes} DELETEs. */
    public Workload withChurn(double fraction, double deletes) {
        return new Workload(putsPerMonth, getsPerMonth, deletes, valueBytes, storedBytes, fraction, chunkSize);
    }

    /** The objects one copy of a value is stored as: its chunks and manifest, or itself. */
    double piecesPerValue() {
        return chunkSize > 0 && valueBytes >= chunkSize ? Math.ceil(valueBytes / chunkSize) + 1 : 1;
    }
}
