/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudStore;

/**
 * A {@link ForwardingCloudStore} whose fault can be switched on and off while a test runs (on by default), so a
 * test can write through a healthy cloud and then break it, or heal it again. Thread-safe.
 */
public abstract class FaultInjectingCloudStore extends ForwardingCloudStore {
    private volatile boolean active = true;

    protected FaultInjectingCloudStore(CloudStore delegate) {
        super(delegate);
    }

    /** Turns the fault on or off; takes effect for the next call (and releases calls held by the fault). */
    public final void setActive(boolean active) {
        this.active = active;
        if (!active) {
            onDeactivated();
        }
    }

    /** Whether the fault is on. */
    public final boolean isActive() {
        return active;
    }

    /** Called after the fault was switched off: release calls the fault is holding. Does nothing by default. */
    protected void onDeactivated() {
    }
}
