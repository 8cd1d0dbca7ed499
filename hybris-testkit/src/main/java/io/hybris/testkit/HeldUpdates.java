/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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

    /**
     * {@code delegate}, holding the conditional updates (single or atomic) whose numbers, counted from 1 in the order
     * they are sent, are among {@code numbers}: each waits until {@link Numbered#release(int)} (at most {@code max}),
     * then goes on; the others pass.
     */
    public static Numbered numbered(MetadataStore delegate, Duration max, int... numbers) {
        return new Numbered(delegate, max, numbers);
    }

    /** The store {@link #numbered} returns. Thread-safe. */
    public static final class Numbered extends ForwardingMetadataStore {
        private final AtomicInteger sent = new AtomicInteger();
        private final Map<Integer, CountDownLatch> held = new ConcurrentHashMap<>();
        private final Map<Integer, CountDownLatch> go = new ConcurrentHashMap<>();
        private final Duration max;

        private Numbered(MetadataStore delegate, Duration max, int... numbers) {
            super(delegate);
            this.max = max;
            for (int n : numbers) {
                held.put(n, new CountDownLatch(1));
                go.put(n, new CountDownLatch(1));
            }
        }

        @Override
        public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
            hold();
            super.conditionalUpdate(update);
        }

        @Override
        public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
            hold();
            super.conditionalUpdateAll(updates);
        }

        private void hold() {
            int n = sent.incrementAndGet();
            CountDownLatch release = go.get(n);
            if (release == null) {
                return;
            }
            held.get(n).countDown();
            try {
                release.await(max.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Waits until update {@code n} is held; fails if it is not within the store's {@code max}. */
        public void awaitHeld(int n) throws InterruptedException {
            if (!latch(held, n).await(max.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("conditional update " + n + " not sent within " + max);
            }
        }

        /** Lets update {@code n} go on. */
        public void release(int n) {
            latch(go, n).countDown();
        }

        private static CountDownLatch latch(Map<Integer, CountDownLatch> latches, int n) {
            CountDownLatch latch = latches.get(n);
            if (latch == null) {
                throw new IllegalArgumentException("update " + n + " is not one this store holds: " + latches.keySet());
            }
            return latch;
        }
    }
}
