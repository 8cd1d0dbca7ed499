/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The demo's wiring on the embedded default: two Hybris clients on one embedded ZooKeeper and three directories. */
class SyncDemoTest {
    @Test
    void aFileCreatedInAlicesFolderAppearsInBobsAndBothSay(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Path alice = dir.resolve("alice");
        Path bob = dir.resolve("bob");
        SyncDemo.Running demo = SyncDemo.start(alice, bob, dir.resolve("data"), Duration.ofMillis(200), out);
        try {
            Files.writeString(alice.resolve("hello.txt"), "hello from alice");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(bob.resolve("hello.txt"))
                    .hasContent("hello from alice"));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(bytes.toString(
                    StandardCharsets.UTF_8)).contains("[alice] uploaded hello.txt (16 bytes, version ")
                    .contains("[bob  ] downloaded hello.txt (16 bytes, version "));
        } finally {
            demo.close();
        }
    }
}
