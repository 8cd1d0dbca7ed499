/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.testkit.TestEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fault campaign (see {@link Campaign} and docs/reliability.md), short in CI: each metadata service for about
 * a minute of load under every nemesis. Knobs, all optional: {@code -Dhybris.campaign.seed=N} replays a seed
 * (printed at the start and in every failure), {@code -Dhybris.campaign.duration=30m} runs a soak,
 * {@code -Dhybris.campaign.metadata=zookeeper|consul} runs one service only.
 */
class ReliabilityCampaignTest {
    @TempDir
    Path work;

    @Test
    void zookeeperWithEncryption() throws Exception {
        run("zookeeper", true, false);
    }

    @Test
    void consulWithErasureCoding() throws Exception {
        run("consul", false, true);
    }

    private void run(String metadata, boolean encrypt, boolean erasure) throws Exception {
        String only = System.getProperty("hybris.campaign.metadata", "");
        assumeTrue(only.isBlank() || only.equals(metadata), "hybris.campaign.metadata=" + only);
        TestEnvironment env = TestEnvironment.require();
        String seedProperty = System.getProperty("hybris.campaign.seed", "");
        long seed = seedProperty.isBlank() ? new SecureRandom().nextLong() : Long.parseLong(seedProperty);
        String durationProperty = System.getProperty("hybris.campaign.duration", "");
        Duration duration = durationProperty.isBlank() ? Duration.ofSeconds(80)
                : Duration.parse("PT" + durationProperty.toUpperCase());
        boolean soak = duration.compareTo(Duration.ofMinutes(5)) > 0;
        Campaign.Settings settings = new Campaign.Settings(metadata, seed, duration,
                soak ? Duration.ofSeconds(90) : Duration.ofSeconds(40), 2, 4, soak ? 16 : 6, encrypt, erasure);
        String replay = "replay with -Dhybris.campaign.seed=" + seed + " -Dhybris.campaign.metadata=" + metadata;
        System.out.println("[campaign] " + metadata + " seed " + seed + " for " + duration + " (" + replay + ")");

        // the tally and the report also go to target/campaign-<metadata>.log, which outlives a lost console
        Path log = Path.of("target", "campaign-" + metadata + ".log");
        Files.writeString(log, "[campaign] " + metadata + " seed " + seed + " for " + duration + "\n");
        CampaignReport report = new Campaign(settings, env, work, line -> {
            System.out.println("[campaign] " + line);
            append(log, "[campaign] " + line + "\n");
        }).run();

        System.out.println(report.markdown());
        append(log, report.markdown());
        assertThat(report.violations()).as("violations (%s)", replay).isEmpty();
        assertThat(report.totalOps()).as("operations (%s)", replay).isGreaterThan(500);
        assertThat(report.faultsOf("cloud")).as("cloud faults (%s)", replay).isGreaterThan(10);
        assertThat(report.faultsOf(metadata + " leader killed")).as("leader kills (%s)", replay).isPositive();
        assertThat(report.faultsOf("caller interrupted")).as("interrupts (%s)", replay).isGreaterThan(50);
        assertThat(report.faultsOf("client closed")).as("closes (%s)", replay).isPositive();
        assertThat(report.faultsOf("client JVM killed")).as("JVM kills (%s)", replay).isPositive();
        assertThat(report.checks()).as("checks that ran (%s)", replay)
                .anyMatch(c -> c.startsWith("sweep (grace 0)"))
                .anyMatch(c -> c.startsWith("epoch"));
        if (encrypt) {
            assertThat(report.checks()).anyMatch(c -> c.startsWith("no plaintext"));
        }
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
