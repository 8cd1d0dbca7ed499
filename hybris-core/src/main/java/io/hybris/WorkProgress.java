/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * Progress of long maintenance work ({@link Hybris#sweepOrphans(WorkProgress)},
 * {@link Hybris#rewrapDataKeys(WorkProgress)}), for progress bars and logs: called on the working thread after each
 * item (an object examined, an entry re-wrapped), so it must be quick; what it throws, an {@code Error} too (but not a
 * {@link VirtualMachineError}), is logged and ignored.
 */
@FunctionalInterface
public interface WorkProgress {
    /** Reports nothing. */
    WorkProgress NONE = (done, total) -> {
    };

    /**
     * {@code done} items of {@code total} are finished.
     *
     * @param done  items finished so far
     * @param total all items of this run, known before the first is done
     */
    void progressed(long done, long total);
}
