/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * Meters indexed by a small number (an enum's ordinal, or a combination of two), each registered on first use, so
 * an event costs an array read rather than a registry lookup, and a tag combination that never happens never
 * becomes a time series. Thread-safe: a race registers the same meter twice, which the registry deduplicates.
 */
final class LazyMeters<M> {
    private final AtomicReferenceArray<M> meters;
    private final IntFunction<M> register;

    LazyMeters(int size, IntFunction<M> register) {
        this.meters = new AtomicReferenceArray<>(size);
        this.register = register;
    }

    M get(int index) {
        M m = meters.get(index);
        if (m == null) {
            m = register.apply(index);
            meters.set(index, m);
        }
        return m;
    }
}
