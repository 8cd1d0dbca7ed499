/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfigurationException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client's maintenance settings at their limits. hybris.gc.grace: 100 years is accepted and chunked puts and
 * uploads in parts work under it; more is refused naming the limit (before, a grace past 292 years was accepted and
 * every chunked put then failed with "call failed unexpectedly: ArithmeticException: long overflow", as an upload's
 * pauses are compared in nanoseconds). The sweep and scrub periods: 1 ms is the shortest. The latency probe
 * interval: 100 years too (before, a longer one made the recheck every 3 s fail with a warning of the same overflow).
 */
class MaintenanceLimitsTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void aGraceAboveOneHundredYearsIsRefused() {
        assertThatThrownBy(() -> fx.builder().gcGrace(Duration.ofDays(200_000)).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.gc.grace=PT4800000H must be between 0 and 36500d (100 years: upload times are"
                        + " counted in nanoseconds)");
        assertThatThrownBy(() -> fx.builder().gcGrace(Duration.ofDays(36_500).plusNanos(1)).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.gc.grace=");
    }

    @Test
    void chunkedPutsAndPartsWorkUnderAGraceOfOneHundredYears() {
        Hybris h = fx.open(b -> b.gcGrace(Duration.ofDays(36_500)));
        byte[] v = value(2 * CHUNK + 3, 1);
        assertThat(h.put(C, "k", v).chunks()).isEqualTo(3);
        h.put(C, "s", new ByteArrayInputStream(v), -1);
        PartUploads parts = PartUploads.of(h);
        PartUpload u = parts.start(C, "p");
        var p1 = parts.upload(u, 1, new ByteArrayInputStream(v), v.length);
        parts.complete(u, List.of(p1), PutOptions.none());
        for (String k : List.of("k", "s", "p")) {
            assertThat(h.get(C, k).orElseThrow()).isEqualTo(v);
        }
    }

    /**
     * A periodic sweep or scrub every less than a millisecond is refused naming the key: before, the client's
     * open failed with a bare IllegalArgumentException from its scheduler. 1 ms is the shortest accepted.
     */
    @Test
    void periodsBelowOneMillisecondAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> fx.builder().sweepInterval(Duration.ofNanos(999_999)).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.gc.sweep-interval=PT0.000999999S must be 0 (which turns the periodic sweep off)"
                        + " or at least 1ms");
        assertThatThrownBy(() -> fx.builder().scrubInterval(Duration.ofNanos(1)).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.scrub.interval=PT0.000000001S must be 0 (which turns the periodic scrub off)"
                        + " or at least 1ms");
        assertThat(fx.builder().sweepInterval(Duration.ofMillis(1)).scrubInterval(Duration.ofDays(1)).build()
                .sweepInterval()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void aProbeIntervalAboveOneHundredYearsIsRefused() {
        assertThatThrownBy(() -> fx.builder().probeInterval(Duration.ofDays(200_000)).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.ranking.probe-interval=PT4800000H must be between 0 (which turns latency probing"
                        + " off) and 36500d");
        assertThat(fx.builder().probeInterval(Duration.ofDays(36_500)).build().probeInterval())
                .isEqualTo(Duration.ofDays(36_500));
    }
}
