/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;

import java.util.List;

/**
 * A metadata store whose first conditional update (single or multi-key) is answered as a request re-sent after its
 * answer was lost: the first send applied or not ({@code applyFirst}), then {@code meanwhile} runs (a write racing in
 * between), then the store reports a version conflict that may have applied. Later updates pass. Thread-safe.
 */
final class ResentAfterLostAnswer extends ForwardingMetadataStore {
    private final boolean applyFirst;
    private final Runnable meanwhile;
    private boolean done;

    ResentAfterLostAnswer(MetadataStore delegate, boolean applyFirst, Runnable meanwhile) {
        super(delegate);
        this.applyFirst = applyFirst;
        this.meanwhile = meanwhile;
    }

    @Override
    public synchronized void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
        if (done || applyFirst) {
            delegate().conditionalUpdate(update);
        }
        resentFirst();
    }

    @Override
    public synchronized void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
        if (done || applyFirst) {
            delegate().conditionalUpdateAll(updates);
        }
        resentFirst();
    }

    private void resentFirst() throws VersionConflictException {
        if (!done) {
            done = true;
            meanwhile.run();
            throw new VersionConflictException("re-sent after a lost answer", null, true);
        }
    }
}
