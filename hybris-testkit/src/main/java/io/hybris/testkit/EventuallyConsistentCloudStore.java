/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An eventually consistent cloud: objects written while the fault is active are stored in the delegate but
 * stay invisible to {@link #get} (empty) and {@link #list} until {@link #makeVisible()} is called, so a test
 * decides exactly when the cloud "catches up" instead of waiting for a timer. Objects written while the fault
 * is inactive are visible at once (and an inactive overwrite makes a pending object visible); turning the
 * fault off does not reveal objects already pending. Deleting a pending object deletes it and forgets it.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * EventuallyConsistentCloudStore ec = EventuallyConsistentCloudStore.of(new InMemoryCloudStore("c1"));
 * ec.put("k", v);
 * ec.get("k", 1024);   // empty
 * ec.makeVisible();
 * ec.get("k", 1024);   // v
 * }</pre>
 */
public final class EventuallyConsistentCloudStore extends FaultInjectingCloudStore {
    private final Set<String> pending = ConcurrentHashMap.newKeySet();

    private EventuallyConsistentCloudStore(CloudStore delegate) {
        super(delegate);
    }

    /** An eventually consistent view of {@code delegate}, active at once. */
    public static EventuallyConsistentCloudStore of(CloudStore delegate) {
        return new EventuallyConsistentCloudStore(delegate);
    }

    /** Makes every pending object visible. */
    public void makeVisible() {
        pending.clear();
    }

    /** How many written objects are not yet visible. */
    public int pendingCount() {
        return pending.size();
    }

    @Override
    public void put(String objectKey, byte[] value) {
        if (isActive()) {
            // hide first, so no reader sees the object between the write and the hiding
            pending.add(objectKey);
        } else {
            pending.remove(objectKey);
        }
        super.put(objectKey, value);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        if (pending.contains(objectKey)) {
            return Optional.empty();
        }
        return super.get(objectKey, maxBytes);
    }

    @Override
    public List<CloudObject> list(String prefix) {
        List<CloudObject> all = super.list(prefix);
        if (pending.isEmpty()) {
            return all;
        }
        return all.stream().filter(o -> !pending.contains(o.key())).toList();
    }

    @Override
    public void delete(String objectKey) {
        super.delete(objectKey);
        pending.remove(objectKey);
    }
}
