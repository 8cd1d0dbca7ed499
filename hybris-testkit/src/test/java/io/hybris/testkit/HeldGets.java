/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A cloud whose GETs of the objects {@code which} matches wait at a {@link CallGate} while it holds: interruptibly,
 * as a socket read is aborted, and for at most a minute. Several clouds may share one gate.
 */
final class HeldGets extends ForwardingCloudStore {
    private final CallGate gate;
    private volatile Predicate<String> which;

    /** Holds the GETs {@code which} matches at a gate of its own. */
    HeldGets(CloudStore delegate, Predicate<String> which) {
        this(delegate, new CallGate(), which);
    }

    /** Holds the GETs {@code which} matches at {@code gate}. */
    HeldGets(CloudStore delegate, CallGate gate, Predicate<String> which) {
        super(delegate);
        this.gate = gate;
        this.which = which;
    }

    void hold() {
        gate.hold();
    }

    /** Holds the GETs {@code more} matches too. */
    void holdAlso(Predicate<String> more) {
        which = which.or(more);
    }

    void release() {
        gate.release();
    }

    int held() {
        return gate.held();
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        if (which.test(objectKey)) {
            try {
                if (!gate.pass(Duration.ofMinutes(1))) {
                    throw new TransientCloudException(id(), "held for a minute: " + objectKey);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransientCloudException(id(), "interrupted while held: " + objectKey, e);
            }
        }
        return super.get(objectKey, maxBytes);
    }
}
