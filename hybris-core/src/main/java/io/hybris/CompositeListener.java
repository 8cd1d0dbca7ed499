/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.time.Duration;
import java.util.List;

/**
 * Passes every event to several listeners in order ({@link HybrisListener#of}). A listener that throws (an exception
 * or an error, but the JVM's own) does not keep the event from the ones after it; the first failure is rethrown once
 * all ran.
 */
final class CompositeListener implements HybrisListener {
    private final HybrisListener[] listeners;

    CompositeListener(List<HybrisListener> listeners) {
        this.listeners = listeners.toArray(new HybrisListener[0]);
    }

    /** One event, delivered to one listener. */
    @FunctionalInterface
    private interface Event {
        void deliver(HybrisListener l);
    }

    private void each(Event event) {
        Throwable first = null;
        for (HybrisListener l : listeners) {
            try {
                event.deliver(l);
            } catch (RuntimeException | Error e) {
                if (e instanceof VirtualMachineError) {
                    throw e; // out of memory, stack overflow: the JVM's failure, not a listener's
                }
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first instanceof RuntimeException r) {
            throw r;
        }
        if (first != null) {
            throw (Error) first;
        }
    }

    @Override
    public void cloudOperation(String cloudId, CloudOperation operation, String objectKey, Outcome outcome,
                               Duration latency) {
        each(l -> l.cloudOperation(cloudId, operation, objectKey, outcome, latency));
    }

    @Override
    public void cloudRequest(CloudRequest request) {
        each(l -> l.cloudRequest(request));
    }

    @Override
    public void operation(Operation operation, String container, OperationOutcome outcome, Duration duration) {
        each(l -> l.operation(operation, container, outcome, duration));
    }

    @Override
    public void metadataCall(MetadataOperation operation, MetadataOutcome outcome, Duration duration) {
        each(l -> l.metadataCall(operation, outcome, duration));
    }

    @Override
    public void casConflict(String container, int keys, ConflictResolution resolution) {
        each(l -> l.casConflict(container, keys, resolution));
    }

    @Override
    public void cacheLookup(CacheResult result) {
        each(l -> l.cacheLookup(result));
    }

    @Override
    public void getRestarted(String container, String key) {
        each(l -> l.getRestarted(container, key));
    }

    @Override
    public void worstCaseGet(String container, String key) {
        each(l -> l.worstCaseGet(container, key));
    }

    @Override
    public void garbageCollected(String cloudId, String objectKey) {
        each(l -> l.garbageCollected(cloudId, objectKey));
    }

    @Override
    public void garbageCollected(String cloudId, String objectKey, GcCause cause) {
        each(l -> l.garbageCollected(cloudId, objectKey, cause));
    }

    @Override
    public void cloudQuarantined(String cloudId, int failures, Duration duration) {
        each(l -> l.cloudQuarantined(cloudId, failures, duration));
    }
}
