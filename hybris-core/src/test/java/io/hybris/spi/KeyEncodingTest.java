/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyEncodingTest {
    private static final Pattern ENCODED = Pattern.compile("[A-Za-z0-9._%-]+");

    private static void assertWellFormedRoundTrip(String key) {
        String encoded = KeyEncoding.encode(key);
        assertThat(encoded).as("encoding of %s", key).matches(ENCODED).doesNotStartWith(".")
                .isNotEqualTo(".").isNotEqualTo("..");
        assertThat(KeyEncoding.decode(encoded)).isEqualTo(key);
    }

    @Test
    void seededRandomUnicodeKeysRoundTrip() {
        Random random = new Random(4242L);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder sb = new StringBuilder();
            int length = 1 + random.nextInt(40);
            while (sb.length() < length) {
                int cp = switch (random.nextInt(4)) {
                    case 0 -> 0x20 + random.nextInt(0x5f);          // printable ASCII
                    case 1 -> 0xa0 + random.nextInt(0xd800 - 0xa0);  // BMP below the surrogates
                    case 2 -> 0xe000 + random.nextInt(0x10000 - 0xe000);
                    default -> 0x10000 + random.nextInt(0x110000 - 0x10000); // supplementary planes
                };
                sb.appendCodePoint(cp);
            }
            assertWellFormedRoundTrip(sb.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "#", "%", ".", "..", "...", ".hidden", "a.b", "a/b#c%d", "%2F", "100%", "-_.",
            "photos/2024/cat.jpg", "key#1_abc", " ", "ключ", "日本語", "😀", "C:\\path", "a+b=c&d?e"})
    void specialKeysRoundTripToSafeNames(String key) {
        assertWellFormedRoundTrip(key);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "cat.jpg|cat.jpg",
            "A-z_0.9|A-z_0.9",
            "/|%2F",
            "#|%23",
            "%|%25",
            ".|%2E",
            "..|%2E.",
            ".hidden|%2Ehidden",
            "a.b.|a.b.",
            "a b|a%20b",
            "é|%C3%A9",
            "😀|%F0%9F%98%80"})
    void encodesExactly(String key, String encoded) {
        assertThat(KeyEncoding.encode(key)).isEqualTo(encoded);
        assertThat(KeyEncoding.decode(encoded)).isEqualTo(key);
    }

    @Test
    void aMaximalKeyEncodesToAtMostThreeCharactersPerByte() {
        String key = "é".repeat(128);

        String encoded = KeyEncoding.encode(key);

        assertThat(encoded).hasSize(768);
        assertThat(KeyEncoding.decode(encoded)).isEqualTo(key);
    }

    @ParameterizedTest
    @ValueSource(strings = {"%", "%4", "a%G1", "%%41", "a/b", "a#b", "a b", "é"})
    void decodeRejectsWhatEncodeNeverProduces(String encoded) {
        assertThatThrownBy(() -> KeyEncoding.decode(encoded)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(encoded);
    }
}
