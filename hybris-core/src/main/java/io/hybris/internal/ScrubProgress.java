/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.KeyHealth;
import io.hybris.ScrubListener;

/**
 * What a scrub or migration reports as it goes (docs/scrub.md, "Resuming"): each key to the caller's listener and,
 * when not healthy, to the state file; each page's running total to the listener and, per container, to the state
 * file with the page's checkpoint. A container the run resumes after a stop starts from what the stopped runs had
 * found up to its checkpoint: their counts are added to the totals and their keys not healthy reported again, as
 * their report was never returned. Used by one scrubbing thread.
 */
final class ScrubProgress {
    private final ScrubState state;
    private final ScrubListener listener;
    private final ScrubTotals totals;
    private String container;
    /** The current container's counts from the stopped runs, and the totals when it began. */
    private long[] prior;
    private long[] start;

    ScrubProgress(ScrubState state, ScrubListener listener, ScrubTotals totals) {
        this.state = state;
        this.listener = listener;
        this.totals = totals;
    }

    /**
     * {@code container} begins; {@code resumed} if a stopped run had checked it up to a checkpoint (or done it), whose
     * findings are then counted and reported again.
     */
    void begin(String container, boolean resumed) {
        this.container = container;
        if (!resumed) {
            state.forgetFindings(container);
        }
        prior = state.found(container);
        totals.add(prior);
        start = totals.counts();
        state.listed(container).forEach(listener::key);
    }

    /** The verdict on one key of the current container. */
    void key(KeyHealth h) {
        listener.key(h);
        if (h.status() != KeyHealth.Status.HEALTHY || !h.uncheckedOn().isEmpty()) {
            state.listed(container, h);
        }
    }

    /** A page of the current container is done, its checkpoint set: saves the state and reports the totals. */
    void page() {
        long[] n = totals.counts();
        for (int i = 0; i < n.length; i++) {
            n[i] += prior[i] - start[i];
        }
        state.found(container, n);
        state.save();
        listener.progress(container, totals.report(false));
    }
}
