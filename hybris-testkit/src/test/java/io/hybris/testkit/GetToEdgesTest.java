/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * getTo into files whose names are valid but long, over files with their own permissions, and beside the partial
 * files of killed downloads.
 */
class GetToEdgesTest {
    private final StreamingFixture fx = new StreamingFixture();
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        fx.close();
    }

    /** A file name of 230 bytes is valid on every Linux file system (NAME_MAX 255): getTo must write it. */
    @Test
    void getToAFileWithALongButValidName() throws Exception {
        Hybris h = fx.open();
        byte[] v = value(1000, 1);
        h.put(C, "k", v);
        Path target = dir.resolve("x".repeat(230));
        Files.write(target, new byte[0]); // the name itself is valid here
        Files.delete(target);

        h.getTo(C, "k", target);

        assertThat(target).hasBinaryContent(v);
    }

    /**
     * A download killed (SIGKILL, power loss) leaves its partial file beside the target, where nothing deleted it: the
     * next getTo of that target deletes partial files untouched for an hour, and leaves a fresh one (a download
     * running in another process) and other files alone.
     */
    @Test
    void getToDeletesTheAbandonedPartialFilesOfItsTarget() throws Exception {
        Hybris h = fx.open();
        byte[] v = value(1000, 2);
        h.put(C, "k", v);
        Path target = dir.resolve("report.pdf");
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(java.time.Duration.ofHours(2)));
        Path abandoned = Files.write(dir.resolve(".report.pdf.k1ll3d.hybris-part"), new byte[4096]);
        Files.setLastModifiedTime(abandoned, old);
        Path running = Files.write(dir.resolve(".report.pdf.st1ll.hybris-part"), new byte[10]);
        Path otherTarget = Files.write(dir.resolve(".notes.txt.k1ll3d.hybris-part"), new byte[10]);
        Files.setLastModifiedTime(otherTarget, old);
        Path userFile = Files.write(dir.resolve(".report.pdf.keep"), new byte[10]);
        Files.setLastModifiedTime(userFile, old);

        h.getTo(C, "k", target);

        assertThat(target).hasBinaryContent(v);
        assertThat(abandoned).as("an hour-old partial file of this target").doesNotExist();
        assertThat(running).as("a fresh one: another download of it is running").exists();
        assertThat(otherTarget).as("another target's").exists();
        assertThat(userFile).as("not a partial file").exists();
    }

    /** A missing directory is the caller's mistake: the error must say so, not just repeat a temp-file name. */
    @Test
    void getToIntoAMissingDirectorySaysTheDirectoryIsMissing() throws Exception {
        Hybris h = fx.open();
        h.put(C, "k", value(1000, 3));
        Path target = dir.resolve("no-such-dir").resolve("out.bin");

        Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> h.getTo(C, "k", target));

        assertThat(e).isInstanceOf(io.hybris.HybrisException.class);
        assertThat(e.getMessage()).as(e.getMessage()).containsAnyOf("no such", "No such", "does not exist", "missing");
    }

    /** A read that fails midway leaves the old file as it was and no temporary file behind. */
    @Test
    void aReadFailingMidwayLeavesTheOldFileAndNoTemporaryFile() throws Exception {
        Hybris h = fx.open(b -> b.deadline(java.time.Duration.ofSeconds(2)).timerInitial(java.time.Duration.ofMillis(300))
                .timerMin(java.time.Duration.ofMillis(300)));
        byte[] v = value(4 * StreamingFixture.CHUNK, 4);
        h.put(C, "big", v);
        for (io.hybris.cloud.InMemoryCloudStore c : fx.raw) { // chunk 2 corrupt everywhere
            for (io.hybris.spi.CloudObject o : c.list(StreamingFixture.PREFIX)) {
                if (StreamingFixture.chunkIndex(o.key()).orElse(-1) == 2) {
                    c.put(o.key(), new byte[StreamingFixture.CHUNK]);
                }
            }
        }
        Path target = dir.resolve("old.bin");
        Files.writeString(target, "old contents");

        Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> h.getTo(C, "big", target));

        assertThat(e).isInstanceOf(io.hybris.HybrisException.class);
        assertThat(Files.readString(target)).isEqualTo("old contents");
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).containsExactly(target);
        }
    }

    /** Replacing an existing file keeps it readable as it was: the temporary file's 0600 must not leak. */
    @Test
    void getToOverAnExistingFileKeepsItsPermissions() throws Exception {
        Hybris h = fx.open();
        byte[] v = value(1000, 2);
        h.put(C, "k", v);
        Path target = dir.resolve("out.bin");
        Files.write(target, new byte[] {1, 2, 3});
        Set<PosixFilePermission> before = PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(target, before);

        h.getTo(C, "k", target);

        assertThat(target).hasBinaryContent(v);
        assertThat(Files.getPosixFilePermissions(target)).isEqualTo(before);
    }
}
