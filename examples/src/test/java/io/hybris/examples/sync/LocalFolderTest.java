/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class LocalFolderTest {
    @TempDir
    Path root;

    @Test
    void onlySafeRelativePathsAreFiles() {
        LocalFolder folder = new LocalFolder(root);
        assertThat(folder.pathOf("a/b c/d.txt")).contains(root.resolve("a/b c/d.txt"));
        assertThat(folder.keyOf(root.resolve("a/b c/d.txt"))).isEqualTo("a/b c/d.txt");
        for (String bad : new String[] {"../escape", "a/../../escape", "/etc/passwd", "a//b", "a/./b", "a/",
                ".hybris-sync/state-docs.properties", "back\\slash", "tab\there", "x".repeat(257)}) {
            assertThat(folder.pathOf(bad)).as(bad).isEmpty();
        }
    }

    @Test
    void theStateDirectoryIsNotListed() throws IOException {
        LocalFolder folder = new LocalFolder(root);
        Files.writeString(root.resolve("a.txt"), "a");
        Files.writeString(folder.stateDir().resolve("state-docs.properties"), "");
        assertThat(folder.files()).containsOnlyKeys("a.txt");
    }

    @Test
    void aLinkToAFileCountsAsTheFileAndALinkToADirectoryIsNotFollowed() throws IOException {
        LocalFolder folder = new LocalFolder(root);
        Path outside = Files.createTempDirectory("outside-");
        try {
            Files.writeString(outside.resolve("target.txt"), "t");
            Files.writeString(outside.resolve("hidden.txt"), "h");
            Files.createSymbolicLink(root.resolve("link.txt"), outside.resolve("target.txt"));
            Files.createSymbolicLink(root.resolve("linked-dir"), outside);
            Files.createSymbolicLink(root.resolve("dangling.txt"), outside.resolve("none.txt"));
            assertThat(folder.files()).containsOnlyKeys("link.txt");
        } finally {
            for (String name : new String[] {"target.txt", "hidden.txt"}) {
                Files.deleteIfExists(outside.resolve(name));
            }
            Files.delete(outside);
        }
    }

    @Test
    void filesAndDirectoriesVanishingDuringTheWalkLeaveTheOthersListed() throws Exception {
        LocalFolder folder = new LocalFolder(root);
        Set<String> stable = new TreeSet<>();
        for (int i = 0; i < 20; i++) {
            Files.writeString(root.resolve("s" + i + ".txt"), "stable " + i);
            stable.add("s" + i + ".txt");
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger churned = new AtomicInteger();
        AtomicReference<Throwable> churnFailure = new AtomicReference<>();
        Thread churn = new Thread(() -> { // what a sync client and a user do meanwhile: files come and go
            try {
                for (int i = 0; !stop.get(); i++) {
                    Path dir = Files.createDirectories(root.resolve("gone-" + (i % 7)).resolve("sub"));
                    Path file = Files.writeString(dir.resolve("f.txt"), "x");
                    Path part = Files.writeString(folder.tmpDir().resolve("download-" + i + ".part"), "x");
                    Files.delete(file);
                    Files.delete(dir);
                    Files.delete(dir.getParent());
                    Files.delete(part);
                    churned.incrementAndGet();
                }
            } catch (IOException | RuntimeException e) {
                churnFailure.set(e);
            }
        });
        churn.start();
        try {
            for (int walks = 0; (walks < 300 || churned.get() < 300) && churn.isAlive(); walks++) {
                assertThat(folder.files().keySet()).containsAll(stable);
            }
        } finally {
            stop.set(true);
            churn.join();
        }
        assertThat(churnFailure.get()).as("the churning thread's failure").isNull();
        assertThat(churned.get()).isGreaterThanOrEqualTo(300);
    }

    @Test
    void aConflictedCopyKeepsTheExtensionAndGetsACounterIfTaken() throws IOException {
        LocalFolder folder = new LocalFolder(root);
        ZonedDateTime t = ZonedDateTime.of(2026, 11, 24, 13, 5, 9, 0, ZoneOffset.UTC);
        String first = folder.conflictedCopyKey("dir/report.final.txt", "bob", t);
        assertThat(first).isEqualTo("dir/report.final (conflicted copy bob 2026-11-24 130509).txt");
        Files.createDirectories(root.resolve("dir"));
        Files.writeString(root.resolve(first), "taken");
        assertThat(folder.conflictedCopyKey("dir/report.final.txt", "bob", t))
                .isEqualTo("dir/report.final (conflicted copy bob 2026-11-24 130509 2).txt");
        assertThat(folder.conflictedCopyKey("Makefile", "alice", t))
                .isEqualTo("Makefile (conflicted copy alice 2026-11-24 130509)");
        assertThat(folder.conflictedCopyKey(".bashrc", "alice", t))
                .isEqualTo(".bashrc (conflicted copy alice 2026-11-24 130509)");
    }
}
