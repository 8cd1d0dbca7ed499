/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Progress is drawn on a pseudo-terminal (the CLI run under util-linux {@code script}) and not when the output
 * is piped.
 */
class ProgressCliTest {
    @TempDir
    static Path data;
    @TempDir
    static Path work;
    private static CliProcess cli;
    private static Path src;

    @BeforeAll
    static void setUp() throws IOException {
        cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
        byte[] value = new byte[12 << 20];
        new Random(3).nextBytes(value);
        src = work.resolve("big.bin");
        Files.write(src, value);
    }

    private static void requireScript() {
        boolean present = Files.isExecutable(Path.of("/usr/bin/script")) || Files.isExecutable(Path.of("/bin/script"));
        if (!present && (Boolean.getBoolean("hybris.test.require-env") || "true".equals(System.getenv("CI")))) {
            throw new IllegalStateException("util-linux 'script' is needed for the pseudo-terminal test");
        }
        assumeTrue(present, "util-linux 'script' is not installed");
    }

    @Test
    void aLargePutGetAndCatDrawProgressOnATerminal() {
        requireScript();
        CliProcess.Result put = cli.runOnTerminal(CliProcess.shellCommand("put", "media", "big.bin",
                src.toString()));
        assertThat(put.exitCode()).as(put.toString()).isZero();
        assertThat(put.stdout()).as(put.toString()).contains("put media/big.bin", "100% [", "12.0 MiB / 12.0 MiB",
                "MiB/s", "\r");
        assertThat(put.stdout()).contains("put media/big.bin: version ");
        // 12 MiB in the default 8 MiB chunks
        assertThat(cli.run("stat", "media", "big.bin").stdout()).contains("chunks", "2 (the SHA-256 below is the"
                + " manifest's)");

        Path out = work.resolve("got.bin");
        CliProcess.Result get = cli.runOnTerminal(CliProcess.shellCommand("get", "media", "big.bin",
                out.toString()));
        assertThat(get.exitCode()).as(get.toString()).isZero();
        assertThat(get.stdout()).as(get.toString()).contains("get media/big.bin", "100% [", "MiB/s");

        CliProcess.Result cat = cli.runOnTerminal(CliProcess.shellCommand("cat", "media", "big.bin") + " > "
                + CliProcess.quote(work.resolve("cat.bin").toString()));
        assertThat(cat.exitCode()).as(cat.toString()).isZero();
        assertThat(cat.stdout()).as("cat to a file from a terminal").contains("cat media/big.bin", "100% [");

        CliProcess.Result quiet = cli.runOnTerminal(CliProcess.shellCommand("--no-progress", "put", "media",
                "big.bin", src.toString()));
        assertThat(quiet.exitCode()).isZero();
        assertThat(quiet.stdout()).doesNotContain("100% [");

        CliProcess.Result sweep = cli.runOnTerminal(CliProcess.shellCommand("sweep"));
        assertThat(sweep.exitCode()).isZero();
        // the sweep counts the objects every cloud listed: a bar, the count, the rate
        assertThat(sweep.stdout()).as(sweep.toString()).contains("sweeping orphans ", "100% [", " objects / ",
                "objects/s", "sweep: examined");
    }

    /**
     * A {@code put} from standard input stopped by SIGTERM while its progress line is drawn ends that line ("stopped"
     * and a newline), so the shell's prompt does not land on it; it used to stop in the middle of the line. The input
     * is a FIFO that stays open after its first 4 MB: once those are read (the line is drawn from the start), the
     * shell stops the put.
     */
    @Test
    void aPutStoppedWhileItDrawsEndsItsLine() {
        requireScript();
        String dir = CliProcess.quote(work.toString());
        String script = "cd " + dir + " && rm -f held.fifo read && mkfifo held.fifo"
                + " && { { head -c 4000000 /dev/zero; touch read; sleep 300; } > held.fifo 2>/dev/null < /dev/null & }"
                + " ; w=$!; " + CliProcess.shellCommand("put", "media", "held", "-") + " < held.fifo & j=$!;"
                + " while [ ! -f read ]; do sleep 0.05; done; kill -TERM $j; wait $j; s=$?; pkill -P $w; kill $w 2>/dev/null;"
                + " exit $s";
        CliProcess.Result stopped = cli.runOnTerminal(script);
        assertThat(stopped.exitCode()).as(stopped.toString()).isEqualTo(143);
        String shown = stopped.stdout();
        assertThat(shown).as(stopped.toString()).contains("put media/held ");
        String last = shown.substring(shown.lastIndexOf("put media/held "));
        assertThat(last).as("the last line drawn: %s", last.replace("\r", "\\r").replace("\n", "\\n"))
                .matches("(?s)put media/held [^\\r\\n]* stopped\\r?\\n\\s*");
    }

    @Test
    void nothingIsDrawnWhenPiped() {
        CliProcess.Result put = cli.run("put", "media", "piped.bin", src.toString());
        assertThat(put.exitCode()).as(put.toString()).isZero();
        assertThat(put.stderr()).isEmpty();
        assertThat(put.stdout()).doesNotContain("%").doesNotContain("\r");
        CliProcess.Result sweep = cli.run("sweep");
        assertThat(sweep.stderr()).isEmpty();
        assertThat(sweep.stdout()).doesNotContain("sweeping");
    }
}
