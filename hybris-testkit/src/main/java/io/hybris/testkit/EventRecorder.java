/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.HybrisListener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link HybrisListener} that records what a client did, so tests can assert which clouds were contacted and
 * with what outcome, and whether a GET went through the worst case or restarted. Thread-safe.
 */
public final class EventRecorder implements HybrisListener {
    /** One recorded cloud operation. */
    public record CloudEvent(String cloudId, CloudOperation operation, String objectKey, Outcome outcome) {
    }

    private final List<CloudEvent> events = new CopyOnWriteArrayList<>();
    private final AtomicInteger restarts = new AtomicInteger();
    private final AtomicInteger worstCase = new AtomicInteger();
    private final AtomicInteger collected = new AtomicInteger();

    @Override
    public void cloudOperation(String cloudId, CloudOperation operation, String objectKey, Outcome outcome,
                               Duration latency) {
        events.add(new CloudEvent(cloudId, operation, objectKey, outcome));
    }

    @Override
    public void getRestarted(String container, String key) {
        restarts.incrementAndGet();
    }

    @Override
    public void worstCaseGet(String container, String key) {
        worstCase.incrementAndGet();
    }

    @Override
    public void garbageCollected(String cloudId, String objectKey) {
        collected.incrementAndGet();
    }

    /** All cloud events so far. */
    public List<CloudEvent> events() {
        return List.copyOf(events);
    }

    /** Cloud events of one operation and outcome on one cloud. */
    public long count(String cloudId, CloudOperation operation, Outcome outcome) {
        return events.stream().filter(e -> e.cloudId().equals(cloudId) && e.operation() == operation
                && e.outcome() == outcome).count();
    }

    /** How many worst-case GETs restarted on a metadata change. */
    public int restarts() {
        return restarts.get();
    }

    /** How many GETs fell back to the worst case. */
    public int worstCaseGets() {
        return worstCase.get();
    }

    /** How many objects garbage collection deleted. */
    public int garbageCollected() {
        return collected.get();
    }

    /** Forgets everything recorded. */
    public void reset() {
        events.clear();
        restarts.set(0);
        worstCase.set(0);
        collected.set(0);
    }
}
