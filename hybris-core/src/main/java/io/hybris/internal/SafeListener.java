/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/** Shields the protocol from a {@link HybrisListener} that throws: the failure is logged, the call goes on. */
final class SafeListener implements HybrisListener {
    private static final Logger LOG = LoggerFactory.getLogger(SafeListener.class);

    private final HybrisListener delegate;

    SafeListener(HybrisListener delegate) {
        this.delegate = delegate;
    }

    private static void guard(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.warn("listener failed", e);
        }
    }

    @Override
    public void cloudOperation(String cloudId, CloudOperation op, String objectKey, Outcome outcome,
                               Duration latency) {
        guard(() -> delegate.cloudOperation(cloudId, op, objectKey, outcome, latency));
    }

    @Override
    public void getRestarted(String container, String key) {
        guard(() -> delegate.getRestarted(container, key));
    }

    @Override
    public void worstCaseGet(String container, String key) {
        guard(() -> delegate.worstCaseGet(container, key));
    }

    @Override
    public void garbageCollected(String cloudId, String objectKey) {
        guard(() -> delegate.garbageCollected(cloudId, objectKey));
    }
}
