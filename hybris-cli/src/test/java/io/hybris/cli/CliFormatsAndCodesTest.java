/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.ByteRange;
import io.hybris.CallInterruptedException;
import io.hybris.MetadataStoreException;
import io.hybris.NotEnoughCloudsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Without a process: the CLI's number and JSON formats at their boundaries, the exit codes of unavailability,
 * a key without a file name, the shell quoting of the ready ls line, and an empty $HYBRIS_CONFIG.
 */
class CliFormatsAndCodesTest {
    @TempDir
    Path dir;

    @Test
    void sizesChangeUnitAtExactly1024() {
        assertThat(Sizes.bytes(1023)).isEqualTo("1023 B");
        assertThat(Sizes.bytes(1024)).isEqualTo("1.0 KiB");
        assertThat(Sizes.bytes(1L << 20)).isEqualTo("1.0 MiB");
        assertThat(Sizes.bytes((1L << 30) - 1)).isEqualTo("1024.0 MiB");
        assertThat(Sizes.bytes(1L << 40)).isEqualTo("1.0 TiB");
    }

    @Test
    void durationsChangeFormAtAMinuteAndAnHour() {
        assertThat(Sizes.duration(Duration.ofSeconds(59))).isEqualTo("59s");
        assertThat(Sizes.duration(Duration.ofSeconds(60))).isEqualTo("1m00s");
        assertThat(Sizes.duration(Duration.ofSeconds(3599))).isEqualTo("59m59s");
        assertThat(Sizes.duration(Duration.ofSeconds(3600))).isEqualTo("1h00m");
    }

    @Test
    void jsonEscapesEveryControlCharacterAndWritesWholeNumbersWithoutAFraction() {
        assertThat(Json.write("\u0000\u001f\u0020")).isEqualTo("\"\\u0000\\u001f \"");
        assertThat(Json.write(Map.of("a", 2.0))).isEqualTo("{\"a\":2}");
        assertThat(Json.write(2.5)).isEqualTo("2.5");
        assertThat(Json.write(Double.NaN)).isEqualTo("null");
    }

    @Test
    void rangesParseBothEndsInclusive() {
        RangeConverter c = new RangeConverter();
        assertThat(c.convert("0-0")).isEqualTo(ByteRange.of(0, 0));
        assertThat(c.convert("10-19")).isEqualTo(ByteRange.of(10, 19));
        assertThat(c.convert("5-")).isEqualTo(ByteRange.from(5));
        assertThat(c.convert("-1")).isEqualTo(ByteRange.suffix(1));
        assertThatThrownBy(() -> c.convert("-")).isInstanceOf(picocli.CommandLine.TypeConversionException.class);
        assertThatThrownBy(() -> c.convert("1-2-3")).isInstanceOf(picocli.CommandLine.TypeConversionException.class);
    }

    @Test
    void everyKindOfUnavailabilityExitsFour() {
        assertThat(Failures.exitCode(new NotEnoughCloudsException("2 of 3 clouds failed")))
                .isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(Failures.exitCode(new MetadataStoreException("down"))).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(Failures.exitCode(new CallInterruptedException("interrupted", true, null)))
                .isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(Failures.exitCode(new IllegalStateException("bug"))).isEqualTo(ExitCode.OTHER);
    }

    @Test
    void aKeyEndingInADotSegmentHasNoDefaultFileName() {
        assertThat(GetCommand.defaultName("dir/file.txt")).isEqualTo("file.txt");
        assertThat(GetCommand.defaultName("file.txt")).isEqualTo("file.txt");
        for (String key : new String[] {"dir/", "dir/.", "dir/..", ".."}) {
            assertThatThrownBy(() -> GetCommand.defaultName(key)).as(key).isInstanceOfSatisfying(CliException.class,
                    e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE));
        }
    }

    @Test
    void shellQuotingSurvivesASingleQuote() {
        assertThat(LsCommand.shellQuoted("plain-key_1.txt")).isEqualTo("plain-key_1.txt");
        assertThat(LsCommand.shellQuoted("it's $HOME")).isEqualTo("'it'\\''s $HOME'");
        assertThat(LsCommand.shellQuoted("")).isEqualTo("''");
    }

    @Test
    void lsRefusesAPageAboveTenThousandKeysBeforeOpeningAnything() {
        LsCommand ls = new LsCommand();
        ls.container = "c";
        ls.limit = 10_001;
        assertThatThrownBy(ls::call).isInstanceOfSatisfying(CliException.class,
                e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE));
    }

    @Test
    void anEmptyHybrisConfigMeansTheEmbeddedDefault() {
        ConfigResolver.Resolved r = new ConfigResolver(Map.of("HYBRIS_CONFIG", " ", "HYBRIS_DATA_DIR",
                dir.toString())).resolve(null, null);
        assertThat(r.dataDir()).isEqualTo(dir.toAbsolutePath().normalize());
    }

    @Test
    void aTransferLineRoundsItsPercentageDown() {
        try (Progress p = Progress.transfer(new PrintStream(java.io.OutputStream.nullOutputStream()), "get", 1000)) {
            p.add(999);
            assertThat(p.line(1_000_000_000L, false)).contains(" 99% [");
            p.add(1);
            assertThat(p.line(1_000_000_000L, false)).contains("100% [");
        }
    }
}
