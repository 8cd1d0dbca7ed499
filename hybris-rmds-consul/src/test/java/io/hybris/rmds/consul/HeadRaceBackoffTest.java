/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link HeadRaceBackoff}: the cap of the jittered pause doubles from 0.5 ms and stops at 4 ms. */
class HeadRaceBackoffTest {
    @Test
    void theCapDoublesFromHalfAMillisecondToFourMilliseconds() {
        assertThat(HeadRaceBackoff.capMicros(0)).isEqualTo(500);
        assertThat(HeadRaceBackoff.capMicros(1)).isEqualTo(1_000);
        assertThat(HeadRaceBackoff.capMicros(2)).isEqualTo(2_000);
        assertThat(HeadRaceBackoff.capMicros(3)).isEqualTo(4_000);
        assertThat(HeadRaceBackoff.capMicros(4)).isEqualTo(4_000);
        assertThat(HeadRaceBackoff.capMicros(Integer.MAX_VALUE)).isEqualTo(4_000);
    }
}
