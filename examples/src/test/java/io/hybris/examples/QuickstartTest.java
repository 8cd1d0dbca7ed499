/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class QuickstartTest {

    @Test
    @Timeout(120)
    void quickstartRunsOnTheEmbeddedDefaultAndSurvivesACorruptCopy(@TempDir Path dir) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        Quickstart.run(dir, new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("get    photos/cat.jpg -> \"a picture of a cat\"");
        assertThat(out).contains("list   photos -> [cat.jpg, dog.jpg, owl.jpg]");
        assertThat(out).containsPattern("is on clouds \\[disk\\d, disk\\d\\]");
        assertThat(out.split("get    photos/cat.jpg -> \"a picture of a cat\"  \\(still correct", -1)).hasSize(3);
        assertThat(out).doesNotContain("-> \"a picture of a rat\"");
        assertThat(out).contains("answered the GET with CORRUPT");
        assertThat(out).contains("delete photos/cat.jpg; get -> (absent)");
        assertThat(out).contains("list   photos -> [dog.jpg, owl.jpg]");
        assertThat(out).endsWith("done." + System.lineSeparator());
    }
}
