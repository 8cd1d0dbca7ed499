/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.VersionInfo;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Erasure coding (docs/erasure-coding.md): values of at least 64 KiB are split into k=2 data chunks and f=1 parity
 * chunk, one per cloud, instead of two full copies — 1.5x the value's size stored instead of 2x. Needs the
 * {@code hybris-erasure} module. Runs on the embedded default: {@code java ... ErasureCodingExample [data-dir]}.
 */
public final class ErasureCodingExample {
    private ErasureCodingExample() {
    }

    /** Runs the example; the optional argument is the data directory. */
    public static void main(String[] args) {
        run(Path.of(args.length > 0 ? args[0] : "target/erasure-example").toAbsolutePath(), System.out);
    }

    /** Runs the example with data under {@code dir}, printing to {@code out}. */
    public static void run(Path dir, PrintStream out) {
        HybrisConfig config = EmbeddedSetup.under(dir)
                .erasurePolicy(ErasurePolicy.THRESHOLD) // small values stay replicated
                .erasureThreshold(64 << 10)
                .erasureDataChunks(2)
                .build();
        try (Hybris hybris = Hybris.open(config)) {
            byte[] photo = new byte[1 << 20];
            Arrays.fill(photo, (byte) 7);
            VersionInfo coded = hybris.put("photos", "big.raw", photo);
            VersionInfo copied = hybris.put("photos", "note.txt", "small".getBytes(StandardCharsets.UTF_8));
            out.println("big.raw (1 MiB): one chunk on each of " + coded.clouds());
            out.println("note.txt (5 bytes): full copies on " + copied.clouds());
            out.println("read back intact: " + Arrays.equals(photo, hybris.get("photos", "big.raw").orElseThrow()));
        }
    }
}
