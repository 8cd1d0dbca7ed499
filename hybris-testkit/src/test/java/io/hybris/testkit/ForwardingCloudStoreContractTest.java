/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudStore;

import java.time.Duration;

/**
 * Runs the {@link CloudStoreContract} through every testkit decorator stacked with its fault switched off, to
 * prove that {@link ForwardingCloudStore} and each decorator forward every operation completely.
 */
class ForwardingCloudStoreContractTest extends CloudStoreContract {
    @Override
    protected CloudStore newStore() {
        CloudStore store = new InMemoryCloudStore("fwd1");
        RecordingCloudStore recording = RecordingCloudStore.of(store);
        GatedCloudStore gated = GatedCloudStore.of(recording, key -> true);
        gated.setActive(false);
        EventuallyConsistentCloudStore eventual = EventuallyConsistentCloudStore.of(gated);
        eventual.setActive(false);
        UnavailableCloudStore unavailable = UnavailableCloudStore.of(eventual);
        unavailable.setActive(false);
        SlowCloudStore slow = SlowCloudStore.of(unavailable, Duration.ofHours(1));
        slow.setActive(false);
        OversizedCloudStore oversized = OversizedCloudStore.of(slow, 1L << 20);
        oversized.setActive(false);
        StaleCloudStore stale = StaleCloudStore.of(oversized);
        stale.setActive(false);
        CorruptingCloudStore corrupting = CorruptingCloudStore.of(stale);
        corrupting.setActive(false);
        return new ForwardingCloudStore(corrupting) {
        };
    }
}
