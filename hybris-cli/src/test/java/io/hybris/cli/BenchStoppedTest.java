/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.FileVisitResult;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code hybris bench} deletes its keys afterwards, also when it is stopped (Ctrl-C, SIGTERM) in the middle: a
 * stopped run used to leave every key it had written, under a random run name no later run cleans up.
 */
class BenchStoppedTest {
    @TempDir
    Path data;

    /**
     * The bench's objects on the three clouds of the embedded default (its writes go to the two fastest, whichever
     * they are); entries that vanish while walked (a file renamed into place) are skipped.
     */
    private long benchObjects() throws IOException {
        AtomicLong n = new AtomicLong();
        for (String cloud : List.of("cloud-disk1", "cloud-disk2", "cloud-disk3")) {
            Path dir = data.resolve(cloud);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile() && file.toString().contains("hybris-bench")) {
                        n.incrementAndGet();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        return n.get();
    }

    @Test
    void aBenchStoppedMidRunLeavesNoKeys() throws Exception {
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "bench", "-n", "10000", "--size", "1KiB"));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            await().atMost(Duration.ofSeconds(120)).until(() -> benchObjects() >= 10);
        } finally {
            p.destroy(); // SIGTERM, as Ctrl-C's SIGINT: the JVM runs its shutdown hooks
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        CliProcess.Result ls = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString())).run("ls", "hybris-bench");
        assertThat(ls.exitCode()).as(ls.toString()).isZero();
        assertThat(ls.stdout()).as("keys left by the stopped bench").isEmpty();
    }

    /**
     * Stopped once the timed run is over, while it deletes its keys (its progress line has just ended with "done"):
     * the deletions still go on to the end. The shutdown hook used to be removed before them, so a SIGTERM then
     * ended the process at once and left every key not yet deleted.
     */
    @Test
    void aBenchStoppedWhileDeletingItsKeysLeavesNoKeys() throws Exception {
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "bench", "-n", "1500", "--size", "1KiB"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HYBRIS_PROGRESS", "always");
        Process p = pb.start();
        CompletableFuture<Boolean> timedRunOver = CompletableFuture.supplyAsync(() -> {
            StringBuilder err = new StringBuilder();
            try (InputStream in = p.getErrorStream()) {
                int c;
                while ((c = in.read()) >= 0) {
                    err.append((char) c);
                    if (err.indexOf(" done") >= 0) {
                        return true;
                    }
                }
            } catch (IOException e) {
                return false;
            }
            return false;
        });
        try {
            assertThat(timedRunOver.get(120, TimeUnit.SECONDS)).as("the bench's progress ended").isTrue();
        } finally {
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        CliProcess.Result ls = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()))
                .run("ls", "hybris-bench", "-n", "10000");
        assertThat(ls.exitCode()).as(ls.toString()).isZero();
        assertThat(ls.stdout()).as("keys left by the bench stopped while deleting them").isEmpty();
    }
}
