/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seconds-long smoke version of {@link ZooKeeperListingBenchmark} that CI runs: 3,000 keys in pages of 500, one
 * round. Every side must list every key exactly once (the benchmark throws otherwise) and the table must hold the
 * three rows. It checks that the benchmark runs, not how fast anything is.
 */
class ZooKeeperListingSmokeTest {
    @Test
    void listsTheContainerOnEverySide() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        double[] medians = ZooKeeperListingBenchmark.run(3000, 500, 1,
                new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(medians).hasSize(3);
        assertThat(Math.min(medians[0], Math.min(medians[1], medians[2]))).isPositive();
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("3000 keys of 40 characters, pages of 500, 1 rounds")
                .contains("| store `list`, page after page |")
                .contains("| raw: `getChildren` once, pages' `getData` pipelined (fair) |")
                .contains("| raw: `getChildren` per page (the store before) |");
    }
}
