/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * CLI runs stopped in the middle (SIGTERM, as Ctrl-C's SIGINT) or failing half-way on the embedded default, then
 * run again: what the stopped run leaves behind.
 */
class StoppedCliTest {
    @TempDir
    Path data;
    @TempDir
    Path work;

    private CliProcess.Result ok(CliProcess.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * A {@code get} killed with SIGKILL leaves its partial file beside the target (no hook runs): the next {@code get}
     * of that target deletes those untouched for an hour, and leaves a fresh one (another get running) alone.
     */
    @Test
    void aGetDeletesThePartialFilesOfKilledGetsOfItsTarget() throws Exception {
        CliProcess cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
        ok(cli.run("small value".getBytes(StandardCharsets.UTF_8), "put", "box", "v.bin"));
        Path dir = Files.createDirectory(work.resolve("killed"));
        Path killed = Files.write(dir.resolve(".v.bin.4242.123456789.part"), new byte[1 << 16]);
        Files.setLastModifiedTime(killed, java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(Duration.ofHours(2))));
        Path running = Files.write(dir.resolve(".v.bin.4243.987654321.part"), new byte[16]);

        ok(cli.run("get", "box", "v.bin", dir.resolve("v.bin").toString()));

        assertThat(names(dir)).as("the killed get's partial file went, the running one's stayed")
                .containsExactly(".v.bin.4243.987654321.part", "v.bin");
        assertThat(running).exists();
    }

    /**
     * A {@code get} stopped while it downloads leaves the file it would have replaced as it was, and nothing beside
     * it: the partial download (a hidden temporary file as large as what had arrived) used to stay behind.
     */
    @Test
    void aGetStoppedMidDownloadLeavesNoPartialFile() throws Exception {
        CliProcess cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
        Path src = work.resolve("src.bin");
        Random random = new Random(11);
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(src)) {
            for (int i = 0; i < 256; i++) {
                random.nextBytes(block);
                out.write(block);
            }
        }
        ok(cli.run("put", "big", "v.bin", src.toString()));
        Path dir = Files.createDirectory(work.resolve("out"));
        Path target = dir.resolve("v.bin");
        Files.writeString(target, "the old contents");

        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "get", "big", "v.bin", target.toString()));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5)).until(() -> {
                try (Stream<Path> files = Files.list(dir)) {
                    return files.anyMatch(f -> f.getFileName().toString().startsWith(".") && f.toFile().length() > 0);
                }
            });
        } finally {
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the stopped get ended").isTrue();
        }
        assertThat(p.exitValue()).as("the get was stopped before it finished").isNotZero();
        assertThat(names(dir)).as("what the stopped get left in the directory").containsExactly("v.bin");
        assertThat(Files.readString(target, StandardCharsets.UTF_8)).isEqualTo("the old contents");

        ok(cli.run("get", "big", "v.bin", target.toString()));
        assertThat(names(dir)).containsExactly("v.bin");
        assertThat(Files.mismatch(src, target)).isEqualTo(-1L);
    }

    /**
     * A {@code get} whose read fails half-way (the value's last chunk corrupt on every cloud, so the chunks before it
     * were already written to the temporary file): it fails with one line, the file it would have replaced stays as it
     * was, and the partial download does not stay beside it.
     */
    @Test
    void aGetFailingMidDownloadLeavesNoPartialFile() throws Exception {
        // a read that finds a chunk corrupt on every cloud retries until its deadline (a repair may come)
        CliProcess cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString(), "HYBRIS_DEADLINE", "3s"));
        Path src = work.resolve("src.bin");
        byte[] value = new byte[24 << 20];
        new Random(3).nextBytes(value);
        Files.write(src, value);
        ok(cli.run("put", "big", "v.bin", src.toString()));
        List<Path> lastChunks;
        try (Stream<Path> files = Files.walk(data)) {
            lastChunks = files.filter(f -> f.getFileName().toString().endsWith("#c2")).toList();
        }
        assertThat(lastChunks).as("the third of three chunks, on each cloud holding a copy").hasSize(2);
        for (Path chunk : lastChunks) {
            byte[] bytes = Files.readAllBytes(chunk);
            bytes[bytes.length / 2] ^= 1;
            Files.write(chunk, bytes);
        }
        Path dir = Files.createDirectory(work.resolve("out"));
        Path target = dir.resolve("v.bin");
        Files.writeString(target, "the old contents");

        CliProcess.Result r = cli.run("get", "big", "v.bin", target.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(r.errLines()).as(r.toString()).singleElement().asString()
                .contains("#c2", "no copy matching", "hybris scrub --deep");
        assertThat(names(dir)).as("what the failed get left in the directory").containsExactly("v.bin");
        assertThat(Files.readString(target, StandardCharsets.UTF_8)).isEqualTo("the old contents");
    }

    /**
     * A listing scrub with {@code --state}, stopped after its first container (whose findings it had not printed
     * yet) and run again: the resumed run skips that container, so its report must still count what the stopped
     * run found there, and exit 4 for the copy left missing. It used to report every key healthy and exit 0.
     */
    @Test
    void aResumedScrubStillReportsWhatTheStoppedRunFound() throws Exception {
        CliProcess cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
        for (String container : List.of("first", "second")) {
            for (int i = 0; i < 3; i++) {
                ok(cli.run(("value " + i).getBytes(StandardCharsets.UTF_8), "put", container, "k" + i));
            }
        }
        Path lost;
        try (Stream<Path> files = Files.walk(data)) {
            lost = files.filter(Files::isRegularFile).filter(f -> f.toString().contains("/first/k1#")).findFirst()
                    .orElseThrow();
        }
        Files.delete(lost);
        Path state = work.resolve("scrub.state");

        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "scrub", "-c", "first", "-c", "second", "--state",
                state.toString(), "--max-requests", "0.5"));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> Files.exists(state) && Files.readString(state).contains("done.first=true"));
        } finally {
            p.destroy(); // SIGTERM, while the second container's clouds are listed (paced)
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the stopped scrub ended").isTrue();
        }
        assertThat(p.exitValue()).as("the scrub was stopped before it finished").isNotZero();
        assertThat(Files.readString(state)).as("the checkpoint of the stopped run").contains("done.first=true")
                .doesNotContain("done.second=true");

        CliProcess.Result resumed = cli.run("scrub", "-c", "first", "-c", "second", "--state", state.toString());
        assertThat(resumed.exitCode()).as(resumed.toString()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(resumed.stdout()).contains("degraded first/k1 missing on", "6 keys checked", "1 degraded",
                "1 missing");

        // that run completed: the next one starts over (skipping the buckets verified healthy) and finds the same
        CliProcess.Result again = cli.run("scrub", "-c", "first", "-c", "second", "--state", state.toString());
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(again.stdout()).contains("degraded first/k1 missing on", "1 degraded", "1 missing");
    }

    /**
     * A large {@code put} killed (SIGKILL) while it streams over a key's value: the key keeps its old value, the
     * next run is not blocked by anything the killed one held, and the partial object files the killed run was
     * writing into the directory clouds' temporary folders do not stay there for ever (nothing else lists them, so
     * the orphan sweep never collected them): a later run deletes those older than an hour.
     */
    @Test
    void aPutKilledMidStreamKeepsTheOldValueAndItsPartialFilesGoOnceOld() throws Exception {
        CliProcess cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
        ok(cli.run("old value".getBytes(StandardCharsets.UTF_8), "put", "big", "v"));
        Path src = work.resolve("src.bin");
        Random random = new Random(5);
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(src)) {
            for (int i = 0; i < 384; i++) {
                random.nextBytes(block);
                out.write(block);
            }
        }
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "put", "big", "v", src.toString()));
        List<Path> left = List.of();
        for (int attempt = 0; attempt < 5 && left.isEmpty(); attempt++) { // killed between two chunks: again
            Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                        .until(() -> !tmpLeftovers().isEmpty());
            } finally {
                p.destroyForcibly(); // SIGKILL
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(p.exitValue()).as("the put was killed before it finished").isEqualTo(128 + 9);
            assertThat(ok(cli.run("cat", "big", "v")).stdout()).isEqualTo("old value");
            left = tmpLeftovers();
        }
        assertThat(left).as("partial files the killed put was writing").isNotEmpty();
        for (Path f : left) {
            Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.from(
                    java.time.Instant.now().minus(Duration.ofHours(2))));
        }
        ok(cli.run("ls", "big"));
        assertThat(tmpLeftovers()).as("partial files left over an hour ago, after another run").isEmpty();
    }

    /**
     * A second run on a data directory another run is using fails at once (exit 4, saying that another hybris
     * process uses the data directory: it used to say the embedded ZooKeeper's directory was in use by another
     * embedded ZooKeeper, to give each its own and to check that the store was reachable) without touching it; the
     * first run's write, finished afterwards, is intact.
     */
    @Test
    void aSecondRunOnADataDirectoryInUseFailsClearlyAndHarmsNothing() throws Exception {
        CliProcess cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "put", "held", "v", "-"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HYBRIS_PROGRESS", "always");
        Process first = pb.start();
        CompletableFuture<Boolean> streaming = CompletableFuture.supplyAsync(() -> {
            StringBuilder err = new StringBuilder();
            try (java.io.InputStream in = first.getErrorStream()) {
                int c;
                while ((c = in.read()) >= 0) {
                    err.append((char) c);
                    if (err.indexOf("put held/v") >= 0) {
                        return true; // its client is open: it holds the data directory
                    }
                }
            } catch (IOException e) {
                return false;
            }
            return false;
        });
        try (OutputStream stdin = first.getOutputStream()) {
            stdin.write("first half, ".getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            assertThat(streaming.get(120, TimeUnit.SECONDS)).as("the first run streams").isTrue();

            CliProcess.Result second = cli.run("put", "held", "v", "-");
            assertThat(second.exitCode()).as(second.toString()).isEqualTo(ExitCode.UNAVAILABLE);
            assertThat(second.errLines()).hasSize(1);
            assertThat(second.errLines().get(0)).startsWith("hybris: ")
                    .contains("the data directory " + data, "in use by another hybris process")
                    .doesNotContain("reachable", "give each one its own");

            stdin.write("second half".getBytes(StandardCharsets.UTF_8));
        } finally {
            if (!first.waitFor(60, TimeUnit.SECONDS)) {
                first.destroyForcibly();
            }
        }
        assertThat(first.exitValue()).as("the first run").isZero();
        assertThat(ok(cli.run("cat", "held", "v")).stdout()).isEqualTo("first half, second half");
    }

    /** The files in the embedded default's directory clouds' temporary folders. */
    private List<Path> tmpLeftovers() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String cloud : List.of("cloud-disk1", "cloud-disk2", "cloud-disk3")) {
            Path tmp = data.resolve(cloud).resolve("~tmp");
            if (Files.isDirectory(tmp)) {
                try (Stream<Path> files = Files.list(tmp)) {
                    files.forEach(out::add);
                }
            }
        }
        return out;
    }
}
