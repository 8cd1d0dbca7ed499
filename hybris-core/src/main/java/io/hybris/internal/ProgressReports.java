/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.WorkProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a caller's {@link WorkProgress} as its contract says: what it throws, an {@code Error} too (a failed
 * assertion, a class missing), is logged and ignored, so that a progress bar cannot end the sweep or re-wrap it
 * follows; only a {@link VirtualMachineError} goes on. Stateless.
 */
final class ProgressReports {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressReports.class);

    private ProgressReports() {
    }

    static void report(WorkProgress progress, long done, long total) {
        try {
            progress.progressed(done, total);
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError v) {
                throw v;
            }
            LOG.warn("progress listener failed; ignored", e);
        }
    }
}
