/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.TestEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI over f=1 on MinIO, Azurite and fake-gcs-server (each behind its toxiproxy proxy, started by
 * {@code src/test/test-env.sh}) with an embedded ZooKeeper for metadata and encryption on, from a configuration
 * file: every command (put, get, cat, ls, stat, versions, tput, rm, sweep, rewrap, clouds, bench) in spawned
 * processes. Skipped without the emulators, except under
 * {@code -Dhybris.test.require-env=true}.
 */
class EmulatedCloudsCliTest {
    @TempDir
    Path work;

    @Test
    void everyCommandOverTheEmulators() throws IOException {
        EmulatedClouds clouds = new EmulatedClouds(TestEnvironment.require());
        Properties p = new Properties();
        p.put("hybris.f", "1");
        p.put("hybris.deadline", "30s");
        p.put("hybris.rmds.type", "embedded-zookeeper");
        p.put("hybris.rmds.embedded-zookeeper.data-dir", work.resolve("zookeeper").toString());
        p.put("hybris.crypto.mode", "metadata");
        p.putAll(clouds.hybrisProperties("cli-" + UUID.randomUUID() + "/"));
        Path config = work.resolve("emulators.properties");
        try (Writer w = Files.newBufferedWriter(config)) {
            p.store(w, "the CLI test over the emulators");
        }
        CliProcess cli = new CliProcess(Map.of("HYBRIS_CONFIG", config.toString()));

        CliProcess.Result put = cli.run("hello, clouds".getBytes(StandardCharsets.UTF_8), "put", "docs", "a.txt");
        assertThat(put.exitCode()).as(put.toString()).isZero();
        assertThat(put.stdout()).contains("put docs/a.txt: version 1_", "13 bytes on c");

        Map<String, Object> stat = JsonReader.object(run(cli, "--json", "stat", "docs", "a.txt").stdout());
        assertThat(stat).containsEntry("size", 13L);
        assertThat((List<?>) stat.get("clouds")).hasSize(2).allSatisfy(id -> assertThat(id).isIn("c0", "c1", "c2"));

        Path out = work.resolve("a.txt");
        run(cli, "get", "docs", "a.txt", out.toString());
        assertThat(Files.readString(out)).isEqualTo("hello, clouds");
        assertThat(run(cli, "cat", "docs", "a.txt", "--range", "7-").stdout()).isEqualTo("clouds");

        Map<String, Object> ls = JsonReader.object(run(cli, "ls", "docs", "--json").stdout());
        assertThat(ls.get("keys")).isEqualTo(List.of("a.txt"));

        Map<String, Object> status = JsonReader.object(run(cli, "clouds", "--json").stdout());
        assertThat(status).containsEntry("healthy", 3L);

        Map<String, Object> versions = JsonReader.object(run(cli, "--json", "versions", "docs", "a.txt").stdout());
        assertThat((List<?>) versions.get("versions")).hasSize(1);

        Path dir = Files.createDirectories(work.resolve("album"));
        Files.writeString(dir.resolve("one.txt"), "one");
        Files.writeString(dir.resolve("two.txt"), "two");
        Map<String, Object> tput = JsonReader.object(run(cli, "--json", "tput", "docs", dir.toString()).stdout());
        assertThat(tput).containsEntry("count", 2L);
        assertThat(run(cli, "cat", "docs", "two.txt").stdout()).isEqualTo("two");

        Map<String, Object> rewrap = JsonReader.object(run(cli, "--json", "rewrap").stdout());
        assertThat(rewrap).containsEntry("examined", 3L).containsEntry("alreadyCurrent", 3L);
        Map<String, Object> sweep = JsonReader.object(run(cli, "--json", "sweep").stdout());
        assertThat(sweep).containsEntry("deleted", 0L).containsEntry("failed", 0L);
        Map<String, Object> bench = JsonReader.object(run(cli, "--json", "bench", "-n", "3").stdout());
        assertThat(bench).containsEntry("count", 3L);
        assertThat((List<?>) bench.get("clouds")).hasSize(3);

        Map<String, Object> rm = JsonReader.object(run(cli, "rm", "docs", "a.txt", "--json").stdout());
        assertThat(rm).containsEntry("deleted", true);
        CliProcess.Result gone = cli.run("stat", "docs", "a.txt");
        assertThat(gone.exitCode()).as(gone.toString()).isEqualTo(ExitCode.NOT_FOUND);
        assertThat(run(cli, "ls", "docs").stdout()).doesNotContain("a.txt").contains("one.txt", "two.txt");
    }

    private static CliProcess.Result run(CliProcess cli, String... args) {
        CliProcess.Result r = cli.run(args);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }
}
