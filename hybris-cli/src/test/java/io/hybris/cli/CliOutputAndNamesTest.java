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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** CLI behaviour on the embedded default in spawned processes: the ls continuation line, long file names. */
class CliOutputAndNamesTest {
    @TempDir
    static Path data;
    @TempDir
    static Path work;
    private static CliProcess cli;

    @BeforeAll
    static void setUp() {
        cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
    }

    private static CliProcess.Result ok(CliProcess.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    /** The words a POSIX shell makes of {@code line}. */
    private static List<String> shellWords(String line) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "for w in " + line + "; do printf '%s\\0' \"$w\"; done")
                .redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        p.waitFor();
        List<String> words = new ArrayList<>();
        for (String w : new String(out, StandardCharsets.UTF_8).split("\0")) {
            if (!w.isEmpty()) {
                words.add(w);
            }
        }
        return words;
    }

    /**
     * docs/cli.md: "the next page's cursor, if any, goes to standard error as a ready {@code hybris ls ... --cursor C}
     * line". Run as printed, it must list the next page: one key, as asked with -n 1.
     */
    @Test
    void theReadyLsLineListsTheNextPage() throws Exception {
        for (String key : List.of("a b", "c d", "e f")) {
            ok(cli.run("x".getBytes(), "put", "pages", key));
        }
        CliProcess.Result first = ok(cli.run("ls", "pages", "-n", "1"));
        assertThat(first.stdout()).isEqualTo("a b\n");
        String line = first.errLines().get(0);
        assertThat(line).startsWith("more keys: hybris ls ");
        List<String> words = shellWords(line.substring("more keys: hybris ".length()));

        CliProcess.Result next = cli.run(words.toArray(String[]::new));

        assertThat(next.exitCode()).as(words + "\n" + next).isZero();
        assertThat(next.stdout()).as(words.toString()).isEqualTo("c d\n");
    }

    /** Without any character a shell would split on: the ready line still drops the page size asked for. */
    @Test
    void theReadyLsLineKeepsThePageSize() throws Exception {
        for (String key : List.of("k1", "k2", "k3")) {
            ok(cli.run("x".getBytes(), "put", "plain", key));
        }
        CliProcess.Result first = ok(cli.run("ls", "plain", "-n", "1"));
        List<String> words = shellWords(first.errLines().get(0).substring("more keys: hybris ".length()));

        CliProcess.Result next = ok(cli.run(words.toArray(String[]::new)));

        assertThat(next.stdout()).as(words.toString()).isEqualTo("k2\n");
    }

    /**
     * {@code hybris cat c k > file} on a full disk: the value was not written, so the exit code must not be 0
     * (coreutils cat exits 1 with "write error"). /dev/full fails every write with ENOSPC.
     */
    @Test
    void catToAFullDiskFails() throws Exception {
        ok(cli.run(new byte[200_000], "put", "full", "v"));
        for (List<String> args : List.of(List.of("cat", "full", "v"), List.of("get", "full", "v", "-"))) {
            List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(new java.io.File("/dev/full"))
                    .redirectError(ProcessBuilder.Redirect.PIPE);
            pb.environment().keySet().removeIf(k -> k.startsWith("HYBRIS_"));
            pb.environment().put("HYBRIS_DATA_DIR", data.toString());
            Process p = pb.start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(args + " > /dev/full: " + err).isNotZero();
        }
    }

    /** A key whose last segment is a valid 240-byte file name: get writes it (NAME_MAX is 255). */
    @Test
    void getOfAKeyWithALongFileName() throws IOException {
        String name = "n".repeat(240);
        ok(cli.run("v".getBytes(), "put", "long", "dir/" + name));
        Path target = work.resolve(name);

        CliProcess.Result got = cli.run("get", "long", "dir/" + name, target.toString());

        assertThat(got.exitCode()).as(got.toString()).isZero();
        assertThat(Files.readString(target)).isEqualTo("v");
    }
}
