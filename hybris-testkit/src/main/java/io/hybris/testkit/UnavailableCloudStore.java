/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;

import java.util.List;
import java.util.Optional;

/**
 * A cloud that is down: while active, every put, get, list and delete fails with a
 * {@link TransientCloudException} ("... unavailable (injected fault)") without reaching the delegate.
 * {@link #id()} and {@link #close()} still forward.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * UnavailableCloudStore down = UnavailableCloudStore.of(new InMemoryCloudStore("c1"));
 * down.setActive(false); // the outage ends
 * }</pre>
 */
public final class UnavailableCloudStore extends FaultInjectingCloudStore {

    private UnavailableCloudStore(CloudStore delegate) {
        super(delegate);
    }

    /** A view of {@code delegate} that is down, active at once. */
    public static UnavailableCloudStore of(CloudStore delegate) {
        return new UnavailableCloudStore(delegate);
    }

    @Override
    public void put(String objectKey, byte[] value) {
        check("put", objectKey);
        super.put(objectKey, value);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        check("get", objectKey);
        return super.get(objectKey, maxBytes);
    }

    @Override
    public List<CloudObject> list(String prefix) {
        check("list", prefix);
        return super.list(prefix);
    }

    @Override
    public void delete(String objectKey) {
        check("delete", objectKey);
        super.delete(objectKey);
    }

    private void check(String op, String objectKey) {
        if (isActive()) {
            throw new TransientCloudException(id(), op + " of '" + objectKey + "' failed: cloud unavailable"
                    + " (injected fault)");
        }
    }
}
