/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** {@code hybris cost} and {@code hybris cost estimate} in a spawned process, on three priced directory clouds. */
class CostCliTest {
    @TempDir
    static Path dir;
    private static Path priced;
    private static Path unpriced;
    private static final CliProcess CLI = new CliProcess(Map.of());

    @BeforeAll
    static void setUp() throws IOException {
        StringBuilder p = new StringBuilder("hybris.rmds.type=memory\n");
        StringBuilder u = new StringBuilder("hybris.rmds.type=memory\n");
        for (String id : new String[] {"c0", "c1", "c2"}) {
            String cloud = "hybris.cloud." + id;
            String line = cloud + ".type=directory\n" + cloud + ".path=" + dir.resolve(id) + "\n";
            p.append(line).append(cloud).append(".price.storage-gb-month=0.03 up to 1024, 0.0295 up to 51200, 0.029\n")
                    .append(cloud).append(".price.put-list-per-1000=0.005\n")
                    .append(cloud).append(".price.get-head-per-1000=0.0004\n")
                    .append(cloud).append(".price.egress-gb=0 up to 1, 0.09 up to 10240, 0.085\n")
                    .append(cloud).append(".price.account=aws\n");
            u.append(line);
        }
        priced = Files.writeString(dir.resolve("priced.properties"), p);
        unpriced = Files.writeString(dir.resolve("unpriced.properties"), u);
    }

    private static CliProcess.Result ok(CliProcess.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    @Test
    void pricesWhatTheCloudsStoreForThePeriod() throws IOException {
        Path file = Files.write(dir.resolve("value.bin"), new byte[100_000]);
        ok(CLI.run("--config", priced.toString(), "put", "photos", "v", file.toString()));
        Map<String, Object> doc = JsonReader.object(ok(CLI.run("--config", priced.toString(), "--json", "cost",
                "--period", "730h")).stdout());
        List<?> clouds = (List<?>) doc.get("clouds");
        assertThat(clouds).hasSize(3);
        long stored = clouds.stream().mapToLong(c -> ((Number) ((Map<?, ?>) c).get("storedBytes")).longValue()).sum();
        assertThat(stored).isEqualTo(200_000); // f+1 = 2 copies
        long lists = clouds.stream().mapToLong(c -> ((Number) ((Map<?, ?>) c).get("putListRequests")).longValue())
                .sum();
        assertThat(lists).isEqualTo(3); // this run listed each cloud once
        double storage = 200_000 / (double) (1L << 30) * 0.03;
        assertThat(((Number) doc.get("total")).doubleValue()).isCloseTo(storage + 3 * 0.005 / 1000, within(1e-12));

        String table = ok(CLI.run("--config", priced.toString(), "cost", "--period", "30d")).stdout();
        assertThat(table).contains("cloud", "stored MB", "total", "c0", "c1", "c2", "charged for 30d");
    }

    @Test
    void estimatesThePapersTableI() {
        Map<String, Object> doc = JsonReader.object(ok(CLI.run("--config", priced.toString(), "--json", "cost",
                "estimate", "--puts", "1e6", "--gets", "1e6", "--size", "1099512", "--stored", "1TiB")).stdout());
        List<?> estimates = (List<?>) doc.get("estimates");
        assertThat(estimates).hasSize(3);
        int[][] table = {{10, 92, 60}, {15, 92, 45}, {5, 92, 30}}; // Hybris, Hybris-EC, Amazon S3
        for (int i = 0; i < 3; i++) {
            Map<?, ?> e = (Map<?, ?>) estimates.get(i);
            assertThat((long) Math.floor(((Number) e.get("put")).doubleValue())).isEqualTo(table[i][0]);
            assertThat((long) Math.floor(((Number) e.get("get")).doubleValue())).isEqualTo(table[i][1]);
            assertThat((long) Math.floor(((Number) e.get("storage")).doubleValue())).isEqualTo(table[i][2]);
        }
        String text = ok(CLI.run("--config", priced.toString(), "cost", "estimate", "--puts", "1000", "--gets",
                "0", "--size", "1MiB", "--stored", "1GiB")).stdout();
        assertThat(text).contains("replication f=1", "erasure coding k=2 f=1", "single cloud");
    }

    @Test
    void badInputIsOneLineWithItsExitCode() {
        CliProcess.Result period = CLI.run("--config", priced.toString(), "cost", "--period", "forever");
        assertThat(period.exitCode()).as(period.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(period.errLines()).hasSize(1);
        assertThat(period.errLines().get(0)).contains("--period");
        CliProcess.Result noPrices = CLI.run("--config", unpriced.toString(), "cost", "estimate", "--puts", "1",
                "--gets", "1", "--size", "1KiB", "--stored", "1GiB");
        assertThat(noPrices.exitCode()).as(noPrices.toString()).isEqualTo(ExitCode.CONFIG);
        assertThat(noPrices.errLines().get(0)).contains("needs a price sheet for every cloud; none for c0, c1, c2");
        CliProcess.Result report = CLI.run("--config", unpriced.toString(), "cost");
        assertThat(report.exitCode()).as(report.toString()).isEqualTo(ExitCode.CONFIG);
        assertThat(report.errLines().get(0)).contains("a cost report needs a price sheet");
    }
}
