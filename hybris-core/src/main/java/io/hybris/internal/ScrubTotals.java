/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.KeyHealth;
import io.hybris.ScrubReport;

/** The running totals of one scrub or migration (docs/scrub.md). Used by one scrubbing thread. */
final class ScrubTotals {
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

    ScrubReport report(boolean complete) {
        return new ScrubReport(checked, skipped, healthy, repaired, degraded, unrecoverable, superseded, missing,
                corrupt, copiesRepaired, bytesRead, bytesWritten, complete);
    }
}
