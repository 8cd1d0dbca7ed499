/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A metadata store that holds conditional updates before they reach the real one, to put a race in a chosen order:
 * each update {@code which} accepts while {@code held} has not counted down to zero counts it down and waits for
 * {@code go} (at most {@code max}), then goes on. So {@code held = new CountDownLatch(2)} holds the first two.
 */
public final class HeldUpdates {
    private HeldUpdates() {
    }

    /** {@code delegate}, holding the first {@code held.getCount()} updates {@code which} accepts until {@code go}. */
    public static MetadataStore first(MetadataStore delegate, Predicate<MetadataUpdate> which, CountDownLatch held,
                                      CountDownLatch go, Duration max) {
        return new ForwardingMetadataStore(delegate) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                if (held.getCount() > 0 && which.test(update)) {
                    held.countDown();
                    try {
                        go.await(max.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                super.conditionalUpdate(update);
            }
        };
    }
}
