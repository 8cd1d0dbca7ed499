/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A cloud whose clock moves with a test's {@link MutableClock}: an object written through this store after the clock
 * was advanced by {@code d} in all is listed with a {@code lastModified} {@code d} later than the cloud recorded. So a
 * test that advances the clock ages, on the cloud's own clock, every object written before — what the orphan sweep
 * measures (it dates a listing by a marker object it writes just before). Works on any backend, emulators included,
 * whose clocks cannot be set.
 *
 * <p>Objects written to the delegate directly (not through this store) are listed as the cloud recorded them, as if
 * written before the clock was first advanced. Thread-safe if the delegate is.
 *
 * <pre>{@code
 * MutableClock clock = new MutableClock();
 * CloudStore cloud = ClockFollowingCloudStore.of(raw, clock);   // give the client `cloud` and `clock`
 * raw.put("hybris/orphan", bytes);
 * clock.advance(Duration.ofMinutes(11));   // the orphan is now 11 minutes old on the cloud's clock too
 * }</pre>
 */
public final class ClockFollowingCloudStore extends ForwardingCloudStore {
    private final MutableClock clock;
    /** How far the clock had been advanced when each object (written through this store) was last written. */
    private final Map<String, Duration> shiftOf = new ConcurrentHashMap<>();

    private ClockFollowingCloudStore(CloudStore delegate, MutableClock clock) {
        super(delegate);
        this.clock = Objects.requireNonNull(clock, "clock must not be null");
    }

    /** {@code cloud} with its clock following {@code clock}. */
    public static ClockFollowingCloudStore of(CloudStore cloud, MutableClock clock) {
        return new ClockFollowingCloudStore(cloud, clock);
    }

    /** Every cloud of {@code clouds}, each with its clock following {@code clock}. */
    public static List<CloudStore> all(List<? extends CloudStore> clouds, MutableClock clock) {
        return clouds.stream().<CloudStore>map(c -> of(c, clock)).toList();
    }

    @Override
    public void put(String objectKey, byte[] value) {
        Duration shift = clock.advanced();
        super.put(objectKey, value);
        shiftOf.put(objectKey, shift);
    }

    @Override
    public List<CloudObject> list(String prefix) {
        return super.list(prefix).stream()
                .map(o -> new CloudObject(o.key(), o.size(),
                        o.lastModified().plus(shiftOf.getOrDefault(o.key(), Duration.ZERO))))
                .toList();
    }

    @Override
    public void delete(String objectKey) {
        super.delete(objectKey);
        shiftOf.remove(objectKey);
    }

    @Override
    public String toString() {
        return "ClockFollowing(" + delegate() + ")";
    }
}
