/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Deletes the temporary files a killed process left beside a file it was replacing (a download's partial file, a
 * scrub state's next version, a directory cloud's object being written): no shutdown hook runs after SIGKILL or a
 * power loss, and nothing else would ever delete them. For stores and tools that write files by renaming a
 * temporary one over them. Only files untouched for {@link #ABANDONED_AFTER} go: a live writer's file keeps changing (a download
 * stalled that long has failed by its deadline). Best effort; stateless.
 */
public final class LeftoverFiles {
    /** How long a temporary file must have been left unchanged to count as abandoned. */
    public static final Duration ABANDONED_AFTER = Duration.ofHours(1);
    private static final Logger LOG = LoggerFactory.getLogger(LeftoverFiles.class);

    private LeftoverFiles() {
    }

    /** Deletes the files in {@code dir} named {@code prefix...suffix} unchanged for {@link #ABANDONED_AFTER}. */
    public static void deleteAbandoned(Path dir, String prefix, String suffix) {
        Instant before = Instant.now().minus(ABANDONED_AFTER);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, f -> {
            String name = f.getFileName().toString();
            return name.startsWith(prefix) && name.endsWith(suffix) && name.length() > prefix.length() + suffix.length();
        })) {
            for (Path f : files) {
                try {
                    if (Files.isRegularFile(f) && Files.getLastModifiedTime(f).toInstant().isBefore(before)) {
                        Files.deleteIfExists(f);
                        LOG.info("deleted {}, a temporary file left by a process that was killed", f);
                    }
                } catch (IOException e) {
                    LOG.debug("could not delete the leftover {}: {}", f, e.toString());
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not look for leftovers in {}: {}", dir, e.toString());
        }
    }
}
