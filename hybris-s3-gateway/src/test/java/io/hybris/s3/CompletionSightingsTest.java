/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class CompletionSightingsTest {
    private static final long STALE = Duration.ofMinutes(10).toNanos();
    private final AtomicLong ticks = new AtomicLong(-5); // a monotonic clock may start anywhere, negative too
    private final CompletionSightings sightings = new CompletionSightings(Duration.ofMinutes(10), ticks::get);

    @Test
    void aMarkIsStaleOnceSeenUnchangedForThePeriodAndAChangeStartsItAgain() {
        assertThat(sightings.stale("b/u", "v1")).isFalse();
        ticks.addAndGet(STALE - 1);
        assertThat(sightings.stale("b/u", "v1")).isFalse();
        ticks.addAndGet(1);
        assertThat(sightings.stale("b/u", "v1")).isTrue();

        assertThat(sightings.stale("b/u", "v2")).as("the record changed: a complete ran again").isFalse();
        assertThat(sightings.stale("b/other", "v1")).as("another upload").isFalse();
        ticks.addAndGet(STALE);
        assertThat(sightings.stale("b/u", "v2")).isTrue();

        sightings.forget("b/u");
        assertThat(sightings.stale("b/u", "v2")).as("forgotten: seen anew").isFalse();
    }

    @Test
    void manyRememberedRecordsArePrunedOnceTwiceTheirPeriodOld() {
        for (int i = 0; i <= CompletionSightings.PRUNE_ABOVE; i++) {
            sightings.stale("b/old-" + i, "v");
        }
        ticks.addAndGet(2 * STALE + 1);
        assertThat(sightings.stale("b/new", "v")).isFalse(); // prunes the old ones
        assertThat(sightings.stale("b/old-0", "v")).as("pruned: seen anew").isFalse();
        ticks.addAndGet(STALE);
        assertThat(sightings.stale("b/new", "v")).isTrue();
    }
}
