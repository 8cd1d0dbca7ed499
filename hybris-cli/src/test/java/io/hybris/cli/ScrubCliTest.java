/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code hybris scrub} and {@code hybris migrate} in spawned processes on the embedded default. */
class ScrubCliTest {
    @TempDir
    static Path data;
    private static CliProcess cli;

    @BeforeAll
    static void setUp() {
        cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
    }

    private static CliProcess.Result ok(CliProcess.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    /** Deletes every object file under one cloud's directory of the embedded default; returns how many. */
    private static long wipe(String cloudDir) throws IOException {
        try (Stream<Path> files = Files.walk(data.resolve(cloudDir))) {
            List<Path> objects = files.filter(Files::isRegularFile).filter(p -> !p.toString().contains("~tmp"))
                    .toList();
            for (Path p : objects) {
                Files.delete(p);
            }
            return objects.size();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void scrubFindsWhatACloudLostRepairsItAndMigrateEmptiesACloud() throws IOException {
        for (int i = 0; i < 5; i++) {
            ok(cli.run(("value " + i).getBytes(StandardCharsets.UTF_8), "put", "docs", "k" + i));
        }
        assertThat(ok(cli.run("scrub")).stdout()).contains("5 keys checked", "5 healthy");
        Path clouds = data;
        String lost = Files.list(clouds).map(p -> p.getFileName().toString()).filter(n -> n.startsWith("cloud-"))
                .sorted().findFirst().orElseThrow();
        long wiped = wipe(lost);
        assertThat(wiped).isPositive();

        CliProcess.Result found = cli.run("scrub");
        assertThat(found.exitCode()).as(found.toString()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(found.stdout()).contains("degraded docs/k0", "missing on", wiped + " missing");

        Map<String, Object> repaired = JsonReader.object(ok(cli.run("--json", "scrub", "--repair")).stdout());
        assertThat(repaired).containsEntry("copiesMissing", wiped).containsEntry("copiesRepaired", wiped)
                .containsEntry("unrecoverable", 0L);
        assertThat(ok(cli.run("scrub", "--deep")).stdout()).contains("5 healthy");

        String id = lost.substring("cloud-".length());
        String other = Files.list(clouds).map(p -> p.getFileName().toString()).filter(n -> n.startsWith("cloud-"))
                .map(n -> n.substring("cloud-".length())).filter(n -> !n.equals(id)).sorted().findFirst().orElseThrow();
        Map<String, Object> moved = JsonReader.object(ok(cli.run("--json", "migrate", id, other)).stdout());
        assertThat(moved).containsEntry("unrecoverable", 0L).containsEntry("degraded", 0L);
        for (int i = 0; i < 5; i++) {
            Map<String, Object> stat = JsonReader.object(ok(cli.run("--json", "stat", "docs", "k" + i)).stdout());
            assertThat((List<Object>) stat.get("clouds")).doesNotContain((Object) id).hasSize(2);
            assertThat(ok(cli.run("cat", "docs", "k" + i)).stdout()).isEqualTo("value " + i);
        }

        CliProcess.Result bad = cli.run("migrate", id, "nowhere");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.errLines().get(0)).contains("cloud 'nowhere' is not configured");
        CliProcess.Result rate = cli.run("scrub", "--max-bytes", "lots");
        assertThat(rate.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(rate.errLines().get(0)).contains("--max-bytes lots is not a size");
    }
}
