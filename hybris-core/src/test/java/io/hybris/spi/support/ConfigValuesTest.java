/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.HybrisConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigValuesTest {
    @ParameterizedTest
    @CsvSource({
            "250ms, PT0.25S",
            "30s, PT30S",
            "5m, PT5M",
            "1h, PT1H",
            "2d, PT48H",
            "0s, PT0S",
            "' 10 S ', PT10S",
            "1500MS, PT1.5S",
            "PT30S, PT30S",
            "pt1m, PT1M",
            "P1DT2H, PT26H"})
    void parsesDurations(String text, String expected) {
        assertThat(ConfigValues.parseDuration("hybris.deadline", text)).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "10", "", "5 minutes", "-5s", "1.5s", "s"})
    void rejectsNonDurationsNamingKeyValueAndExamples(String text) {
        assertThatThrownBy(() -> ConfigValues.parseDuration("hybris.deadline", text))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.deadline=" + text + " is not a duration; write e.g. 250ms, 30s, 5m, 1h or PT30S");
    }

    @ParameterizedTest
    @CsvSource({
            "0, 0",
            "1048576, 1048576",
            "64KiB, 65536",
            "32MiB, 33554432",
            "1GiB, 1073741824",
            "5TiB, 5497558138880",
            "2TB, 2000000000000",
            "1kb, 1000",
            "2MB, 2000000",
            "3gb, 3000000000",
            "10b, 10",
            "' 5 MiB ', 5242880"})
    void parsesSizes(String text, long expected) {
        assertThat(ConfigValues.parseSize("hybris.value.max-size", text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"12XB", "-1", "1.5MiB", "MiB", "", "1 PiB"})
    void rejectsNonSizesNamingKeyValueAndExamples(String text) {
        assertThatThrownBy(() -> ConfigValues.parseSize("hybris.value.max-size", text))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.value.max-size=" + text + " is not a size; write e.g. 1048576, 64KiB, 32MiB, 1GiB or 5TiB");
    }

    @Test
    void parsesIntegers() {
        assertThat(ConfigValues.parseInt("hybris.f", " 2 ")).isEqualTo(2);
        assertThat(ConfigValues.parseInt("hybris.f", "-1")).isEqualTo(-1);
        assertThatThrownBy(() -> ConfigValues.parseInt("hybris.f", "two"))
                .isInstanceOf(HybrisConfigurationException.class).hasMessage("hybris.f=two is not an integer");
        assertThatThrownBy(() -> ConfigValues.parseInt("hybris.f", "99999999999"))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.f=99999999999");
    }

    @Test
    void parsesBooleansStrictly() {
        assertThat(ConfigValues.parseBoolean("hybris.gc.enabled", "TRUE")).isTrue();
        assertThat(ConfigValues.parseBoolean("hybris.gc.enabled", " false ")).isFalse();
        assertThatThrownBy(() -> ConfigValues.parseBoolean("hybris.gc.enabled", "yes"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.gc.enabled=yes must be true or false");
    }
}
