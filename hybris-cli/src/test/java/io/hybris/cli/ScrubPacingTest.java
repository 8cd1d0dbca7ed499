/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.ScrubOptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@code --max-requests} and {@code --max-bytes} (docs/scrub.md): a tiny, infinite or absurd value is a usage error
 * naming the option and the sane range. {@code --max-requests 0.000001} was accepted and waited 11.6 days between
 * requests; {@code 1e-300} overflowed into no pacing; {@code --max-bytes 1} waited a day per 84 KiB copy.
 */
class ScrubPacingTest {
    private static CliException refused(String requests, String bytes) {
        ScrubPacing p = new ScrubPacing();
        p.maxRequests = Double.parseDouble(requests);
        p.maxBytes = bytes;
        CliException e = catchThrowableOfType(() -> p.apply(ScrubOptions.listing()), CliException.class);
        assertThat(e).as(requests + " requests/s, " + bytes).isNotNull();
        assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
        return e;
    }

    @Test
    void aTinyOrInfiniteRequestRateIsAUsageErrorNamingTheOption() {
        for (String tiny : new String[] {"1e-300", "0.000001", "Infinity", "NaN", "-1"}) {
            assertThat(refused(tiny, "0")).hasMessageContaining("--max-requests").hasMessageContaining("0.01");
        }
    }

    @Test
    void aTinyByteRateIsAUsageErrorNamingTheOption() {
        for (String tiny : new String[] {"1", "1000b"}) {
            assertThat(refused("0", tiny)).hasMessageContaining("--max-bytes").hasMessageContaining("1KiB");
        }
    }

    @Test
    void saneRatesPass() {
        ScrubPacing p = new ScrubPacing();
        p.maxRequests = 0.01;
        p.maxBytes = "1KiB";
        ScrubOptions o = p.apply(ScrubOptions.listing());
        assertThat(o.requestsPerSecond()).isEqualTo(0.01);
        assertThat(o.bytesPerSecond()).isEqualTo(1024);
    }
}
