/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Shields the protocol from a {@link HybrisListener} that throws (an exception or an error, but the JVM's own): the
 * failure is logged, the call goes on. Every event is forwarded as it came (no allocation here: the default listener
 * costs one virtual call per event).
 */
final class SafeListener implements HybrisListener {
    private static final Logger LOG = LoggerFactory.getLogger(SafeListener.class);

    private final HybrisListener delegate;

    SafeListener(HybrisListener delegate) {
        this.delegate = delegate;
    }

    /**
     * Logs a listener's failure: an exception or an error (a failed assertion, a class missing at run time), which
     * would otherwise turn the cloud request or call it reports into a failed one. Only the JVM's own failures (out
     * of memory, stack overflow) go on.
     */
    private static void failed(Throwable e) {
        if (e instanceof VirtualMachineError v) {
            throw v;
        }
        LOG.warn("listener failed", e);
    }

    @Override
    public void cloudOperation(String cloudId, CloudOperation op, String objectKey, Outcome outcome,
                               Duration latency) {
        try {
            delegate.cloudOperation(cloudId, op, objectKey, outcome, latency);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void cloudRequest(CloudRequest request) {
        try {
            delegate.cloudRequest(request);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void operation(Operation operation, String container, OperationOutcome outcome, Duration duration) {
        try {
            delegate.operation(operation, container, outcome, duration);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void metadataCall(MetadataOperation operation, MetadataOutcome outcome, Duration duration) {
        try {
            delegate.metadataCall(operation, outcome, duration);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void casConflict(String container, int keys, ConflictResolution resolution) {
        try {
            delegate.casConflict(container, keys, resolution);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void cacheLookup(CacheResult result) {
        try {
            delegate.cacheLookup(result);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void getRestarted(String container, String key) {
        try {
            delegate.getRestarted(container, key);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void worstCaseGet(String container, String key) {
        try {
            delegate.worstCaseGet(container, key);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void garbageCollected(String cloudId, String objectKey) {
        try {
            delegate.garbageCollected(cloudId, objectKey);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void garbageCollected(String cloudId, String objectKey, GcCause cause) {
        try {
            delegate.garbageCollected(cloudId, objectKey, cause);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    @Override
    public void cloudQuarantined(String cloudId, int failures, Duration duration) {
        try {
            delegate.cloudQuarantined(cloudId, failures, duration);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }
}
