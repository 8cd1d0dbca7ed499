/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The scrub's rate limits (docs/scrub.md): 0 for none, else within sane bounds, or a clear error naming the limit.
 * A tiny rate used to be accepted: 1e-6 requests/s waited 11.6 days between requests, 1e-300 overflowed into no
 * pacing at all; 1 byte/s waited a day and more after each copy read.
 */
class ScrubOptionsTest {
    @Test
    void aTinyOrNonFiniteRequestRateIsRefusedWithTheLimitNamed() {
        for (double tiny : new double[] {1e-300, 1e-6, 0.001}) {
            assertThatThrownBy(() -> ScrubOptions.listing().requestsPerSecond(tiny))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("requestsPerSecond").hasMessageContaining("0.01");
        }
        for (double bad : new double[] {Double.POSITIVE_INFINITY, Double.NaN, -1}) {
            assertThatThrownBy(() -> ScrubOptions.listing().requestsPerSecond(bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requestsPerSecond");
        }
    }

    @Test
    void aTinyByteRateIsRefusedWithTheLimitNamed() {
        for (long tiny : new long[] {1, 1000, -1}) {
            assertThatThrownBy(() -> ScrubOptions.listing().bytesPerSecond(tiny))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bytesPerSecond").hasMessageContaining("1024");
        }
    }

    @Test
    void zeroAndSaneRatesAreAccepted() {
        ScrubOptions o = ScrubOptions.listing().requestsPerSecond(0.01).bytesPerSecond(1024);
        assertThat(o.requestsPerSecond()).isEqualTo(0.01);
        assertThat(o.bytesPerSecond()).isEqualTo(1024);
        ScrubOptions huge = o.requestsPerSecond(1e12).bytesPerSecond(Long.MAX_VALUE);
        assertThat(huge.requestsPerSecond()).isEqualTo(1e12);
        assertThat(ScrubOptions.listing().requestsPerSecond(0).bytesPerSecond(0).bytesPerSecond()).isZero();
    }
}
