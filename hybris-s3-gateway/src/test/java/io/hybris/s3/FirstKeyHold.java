/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.testkit.GatedCloudStore;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * Three in-memory clouds ({@code c0} to {@code c2}) that, while held, hold the puts of the first object name
 * {@code names} accepts (and of that name only) at every cloud, so a test can stop one request mid-write.
 */
final class FirstKeyHold {
    private final AtomicReference<String> heldKey = new AtomicReference<>();
    final List<GatedCloudStore> clouds;

    FirstKeyHold(Predicate<String> names) {
        clouds = Stream.of("c0", "c1", "c2").map(id -> GatedCloudStore.of(new InMemoryCloudStore(id),
                key -> names.test(key) && (heldKey.compareAndSet(null, key) || heldKey.get().equals(key)))).toList();
        hold(false);
    }

    /** Holds (the next matching name), or releases and from then on passes every put. */
    void hold(boolean on) {
        heldKey.set(null);
        clouds.forEach(g -> g.setActive(on));
    }

    /** Waits until a put is held. */
    void awaitHeld() {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clouds.stream().mapToInt(GatedCloudStore::blockedCount).sum() >= 1);
    }
}
