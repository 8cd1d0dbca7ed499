/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the examples that need no outside service (the Consul and public-cloud ones are compiled only). */
class ExamplesTest {
    @Test
    void erasureCodingSpreadsOneChunkPerCloud(@TempDir Path dir) {
        String out = run(o -> ErasureCodingExample.run(dir, o));
        assertThat(out).contains("big.raw (1 MiB): one chunk on each of [").contains("read back intact: true");
        assertThat(out.lines().filter(l -> l.startsWith("big.raw")).findFirst().orElseThrow().split(",")).hasSize(3);
    }

    @Test
    void envelopeEncryptionRotatesTheKek(@TempDir Path dir) {
        String out = run(o -> EnvelopeEncryptionExample.run(dir, o));
        assertThat(out).contains("rotated to kek-2026").contains("read with kek-2026 only: the launch code");
    }

    @Test
    void largeFilesStreamAndRestore(@TempDir Path dir) {
        String out = run(o -> LargeFileExample.run(dir, o));
        assertThat(out).contains("stored 41943040 bytes").contains("restored copy identical: true");
    }

    private static String run(java.util.function.Consumer<PrintStream> example) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        example.accept(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
