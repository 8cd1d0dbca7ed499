/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.OversizedObjectException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * A {@link CloudStore} held in this JVM's memory, for tests and ephemeral use. Thread-safe. Values are copied
 * on the way in and out, so callers cannot change stored bytes.
 *
 * <pre>{@code
 * CloudStore mem = new InMemoryCloudStore("mem1");
 * }</pre>
 */
public final class InMemoryCloudStore implements CloudStore {
    private record Stored(byte[] bytes, Instant lastModified) {
    }

    /**
     * A map operation and one copy of the value: about 2 ms at the default chunk size (8 MiB), well under this, and
     * below every read and write timer Hybris sets (the paper's timer is at least {@code hybris.timer.min}, a hedge
     * at least {@code hybris.get.hedge.min-delay}, 50 ms by default), so Hybris runs both reads and writes to this
     * store on the caller's thread (see {@link CloudStore#callTimeBound()}). It was 100 ms, above the hedge delay,
     * which sent every read to an I/O thread and back. A copy of a much larger chunk that overran the bound would
     * only delay a hedge to another cloud.
     */
    private static final Duration CALL_TIME_BOUND = Duration.ofMillis(10);

    private final String id;
    private final Clock clock;
    /** The objects by name: a GET is one hash lookup (it was a skip-list search, a cache miss per level). */
    private final ConcurrentHashMap<String, Stored> objects = new ConcurrentHashMap<>();
    /**
     * The names in {@link #objects}, sorted, for listings: changed under the object's map entry (in its
     * {@code compute}), so a name is here while, and only while, its object is there.
     */
    private final ConcurrentSkipListSet<String> names = new ConcurrentSkipListSet<>();

    /** A store whose objects are timestamped by the system clock. */
    public InMemoryCloudStore(String id) {
        this(id, Clock.systemUTC());
    }

    /** A store whose objects are timestamped by {@code clock}. */
    public InMemoryCloudStore(String id, Clock clock) {
        this.id = Objects.requireNonNull(id, "id");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void put(String objectKey, byte[] value) {
        Stored stored = new Stored(value.clone(), clock.instant());
        objects.compute(objectKey, (name, old) -> {
            if (old == null) {
                names.add(name);
            }
            return stored;
        });
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        Stored s = objects.get(objectKey);
        if (s == null) {
            return Optional.empty();
        }
        if (s.bytes.length > maxBytes) {
            throw new OversizedObjectException(id, objectKey, maxBytes);
        }
        return Optional.of(s.bytes.clone());
    }

    @Override
    public Optional<Duration> callTimeBound() {
        return Optional.of(CALL_TIME_BOUND);
    }

    @Override
    public List<CloudObject> list(String prefix) {
        List<CloudObject> out = new ArrayList<>();
        for (String name : names.tailSet(prefix, true)) {
            if (!name.startsWith(prefix)) {
                break;
            }
            Stored s = objects.get(name);
            if (s != null) { // deleted since the name was passed
                out.add(new CloudObject(name, s.bytes.length, s.lastModified));
            }
        }
        return out;
    }

    @Override
    public void delete(String objectKey) {
        objects.computeIfPresent(objectKey, (name, old) -> {
            names.remove(name);
            return null;
        });
    }

    @Override
    public String toString() {
        return "InMemoryCloudStore[" + id + ", " + objects.size() + " objects]";
    }
}
