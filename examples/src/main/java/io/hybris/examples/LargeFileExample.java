/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import io.hybris.ByteRange;
import io.hybris.Hybris;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Large files (docs/streaming.md): a 40 MiB file streamed in 8 MiB chunks with bounded memory, a range read that
 * fetches one chunk, and a verified download into a file. Runs on the embedded default.
 */
public final class LargeFileExample {
    private LargeFileExample() {
    }

    /** Runs the example; the optional argument is the data directory. */
    public static void main(String[] args) {
        run(Path.of(args.length > 0 ? args[0] : "target/large-file-example").toAbsolutePath(), System.out);
    }

    /** Runs the example with data under {@code dir}, printing to {@code out}. */
    public static void run(Path dir, PrintStream out) {
        try (Hybris hybris = Hybris.open(EmbeddedSetup.under(dir).build())) {
            Path file = dir.resolve("backup.img");
            byte[] content = new byte[40 << 20];
            new Random(1).nextBytes(content);
            Files.write(file, content);

            VersionInfo v = hybris.put("backups", "backup.img", file);
            out.println("stored " + v.size() + " bytes in 8 MiB chunks, version " + v.version());
            try (ValueStream in = hybris.get("backups", "backup.img", ByteRange.of(20 << 20, (20 << 20) + 15))
                    .orElseThrow()) {
                out.println("16 bytes from the middle: " + java.util.HexFormat.of().formatHex(in.readAllBytes()));
            }
            Path restored = dir.resolve("restored.img");
            hybris.getTo("backups", "backup.img", restored);
            out.println("restored copy identical: " + (Files.mismatch(file, restored) == -1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
