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

/** getTo into files whose names are valid but long, and over files with their own permissions. */
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
