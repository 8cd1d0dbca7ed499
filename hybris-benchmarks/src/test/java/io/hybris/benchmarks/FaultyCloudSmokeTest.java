/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.testkit.TestEnvironment;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seconds-long smoke version of {@link FaultyCloudRun} (bench/faulty-cloud.sh) that CI runs on the emulators:
 * a dozen GETs per fault scenario, a hundred tail GETs per hedging mode, and the start-up placement rows. Every GET
 * in it checks the bytes it got against the value written, so the rows prove the faults were survived; it checks
 * that the benchmark runs and prints every row, not how fast anything is.
 */
class FaultyCloudSmokeTest {
    @Test
    void everyScenarioRunsAndPrintsItsRow() throws Exception {
        TestEnvironment env = TestEnvironment.require();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        FaultyCloudRun.run(env, 12, 100, 2, new PrintStream(printed, true, StandardCharsets.UTF_8));
        List<String> rows = printed.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("| "))
                .filter(l -> !l.startsWith("| fault") && !l.startsWith("| hedge |") && !l.startsWith("| probe"))
                .toList();
        assertThat(rows).extracting(l -> l.split(" \\| ")[0].substring(2)).containsExactly(
                "corrupt", "corrupt", "stale", "hang", "hang", "off (paper timer)", "on", "on, min-delay 20 ms", "false", "auto", "true");
    }
}
