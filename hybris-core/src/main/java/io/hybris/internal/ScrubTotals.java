/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.KeyHealth;
import io.hybris.ScrubReport;

/** The running totals of one scrub or migration (docs/scrub.md). Used by one scrubbing thread. */
final class ScrubTotals {
    /** The number of {@link #counts()}. */
    static final int FIELDS = 12;

    long checked, skipped, healthy, repaired, degraded, unrecoverable, superseded, missing, corrupt, copiesRepaired,
            bytesRead, bytesWritten;

    void add(KeyHealth h, int missingCopies, int corruptCopies, int repairedCopies) {
        checked++;
        missing += missingCopies;
        corrupt += corruptCopies;
        copiesRepaired += repairedCopies;
        switch (h.status()) {
            case HEALTHY -> healthy++;
            case REPAIRED -> repaired++;
            case DEGRADED -> degraded++;
            case UNRECOVERABLE -> unrecoverable++;
            case SUPERSEDED -> superseded++;
            default -> throw new IllegalStateException(h.status().toString());
        }
    }

    /** The totals as an array, in {@link ScrubReport}'s order. */
    long[] counts() {
        return new long[] {checked, skipped, healthy, repaired, degraded, unrecoverable, superseded, missing, corrupt,
            copiesRepaired, bytesRead, bytesWritten};
    }

    /** Adds {@code n} (as {@link #counts()}). */
    void add(long[] n) {
        checked += n[0];
        skipped += n[1];
        healthy += n[2];
        repaired += n[3];
        degraded += n[4];
        unrecoverable += n[5];
        superseded += n[6];
        missing += n[7];
        corrupt += n[8];
        copiesRepaired += n[9];
        bytesRead += n[10];
        bytesWritten += n[11];
    }

    ScrubReport report(boolean complete) {
        return new ScrubReport(checked, skipped, healthy, repaired, degraded, unrecoverable, superseded, missing,
                corrupt, copiesRepaired, bytesRead, bytesWritten, complete);
    }
}
