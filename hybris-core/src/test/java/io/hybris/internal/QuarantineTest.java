/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisListener;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class QuarantineTest {
    private static final long SECOND = 1_000_000_000L;

    private final long[] now = {0};
    private final List<String> events = new ArrayList<>();
    private final HybrisListener listener = new HybrisListener() {
        @Override
        public void cloudQuarantined(String cloudId, int failures, Duration duration) {
            events.add(cloudId + " " + failures + " " + duration);
        }
    };
    private final Quarantine quarantine = new Quarantine(2, Duration.ofSeconds(60), listener, () -> now[0]);

    @Test
    void quarantinesAfterTheConfiguredFailuresWithinTheWindowAndReleasesWhenItEnds() {
        quarantine.hashFailed("a");
        assertThat(quarantine.quarantined("a")).isFalse();
        now[0] = 30 * SECOND;
        quarantine.hashFailed("a");
        assertThat(quarantine.quarantined("a")).isTrue();
        assertThat(quarantine.remaining("a")).hasValue(Duration.ofSeconds(60));
        assertThat(events).containsExactly("a 2 PT1M");
        assertThat(quarantine.askLast(List.of("a", "b", "c"))).containsExactly("b", "c", "a");

        now[0] = 90 * SECOND;
        assertThat(quarantine.quarantined("a")).isFalse();
        assertThat(quarantine.remaining("a")).isEmpty();
        assertThat(quarantine.askLast(List.of("a", "b", "c"))).containsExactly("a", "b", "c");
        quarantine.hashFailed("a");
        assertThat(quarantine.quarantined("a")).as("the failures before the quarantine do not count again")
                .isFalse();
    }

    @Test
    void failuresOlderThanTheWindowDoNotCount() {
        quarantine.hashFailed("a");
        now[0] = 61 * SECOND;
        quarantine.hashFailed("a");
        assertThat(quarantine.quarantined("a")).isFalse();
        now[0] = 62 * SECOND;
        quarantine.hashFailed("a");
        assertThat(quarantine.quarantined("a")).isTrue();
    }

    @Test
    void offWhenAfterIsZero() {
        Quarantine off = new Quarantine(0, Duration.ofSeconds(60), listener, () -> now[0]);
        for (int i = 0; i < 10; i++) {
            off.hashFailed("a");
        }
        assertThat(off.quarantined("a")).isFalse();
        assertThat(events).isEmpty();
    }

    @Test
    void quarantinedCloudsKeepTheirRelativeOrderAtTheEnd() {
        quarantine.hashFailed("b");
        quarantine.hashFailed("b");
        quarantine.hashFailed("a");
        quarantine.hashFailed("a");
        assertThat(quarantine.askLast(List.of("a", "c", "b", "d"))).containsExactly("c", "d", "a", "b");
    }
}
