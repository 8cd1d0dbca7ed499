/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Configuration mistakes are HybrisConfigurationExceptions naming the file or key, the value and the fix. */
class PropertiesFileErrorsTest {
    @TempDir
    Path dir;

    /** A backslash path (a Windows habit) makes java.util.Properties throw IllegalArgumentException. */
    @Test
    void aMalformedEscapeInTheFileIsAConfigurationErrorNamingTheFile() throws Exception {
        Path file = dir.resolve("hybris.properties");
        Files.writeString(file, "hybris.f=1\nhybris.rmds.type=memory\nhybris.cloud.a.type=directory\n"
                + "hybris.cloud.a.path=C:\\users\\hybris\\a\nhybris.cloud.b.type=memory\n");

        Throwable e = catchThrowable(() -> HybrisConfig.fromProperties(file, Map.of()));

        assertThat(e).isInstanceOf(HybrisConfigurationException.class);
        assertThat(e.getMessage()).contains(file.toString());
    }

    /** The message names the value given, not a clamped one. */
    @Test
    void anOutOfRangeChunkSizeIsReportedWithTheValueGiven() {
        Throwable e = catchThrowable(() -> HybrisConfig.fromMap(Map.of("hybris.rmds.type", "memory",
                "hybris.cloud.a.type", "memory", "hybris.cloud.b.type", "memory",
                "hybris.chunk.size", "4GiB"), Map.of()));

        assertThat(e).isInstanceOf(HybrisConfigurationException.class);
        assertThat(e.getMessage()).as(e.getMessage()).containsAnyOf("4GiB", "4294967296");
    }

    /** A deadline too long to count in nanoseconds used to open a client whose every call failed unexpectedly. */
    @Test
    void aDeadlineTooLongToCountIsRefusedNamingTheKeyAndTheLimit() {
        for (String key : new String[] {"hybris.deadline", "hybris.timer.min", "hybris.timer.initial"}) {
            Throwable e = catchThrowable(() -> HybrisConfig.fromMap(Map.of("hybris.rmds.type", "memory",
                    "hybris.cloud.a.type", "memory", "hybris.cloud.b.type", "memory", key, "366d"), Map.of()));

            assertThat(e).isInstanceOf(HybrisConfigurationException.class);
            assertThat(e.getMessage()).as(e.getMessage()).contains(key + "=PT8784H", "the most is 365d");
        }
        assertThat(HybrisConfig.fromMap(Map.of("hybris.rmds.type", "memory", "hybris.cloud.a.type", "memory",
                "hybris.cloud.b.type", "memory", "hybris.deadline", "365d"), Map.of()).deadline())
                .isEqualTo(java.time.Duration.ofDays(365));
    }
}
