/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The stored form of object keys, and the listing prefix that finds them. */
class KeyLayoutTest {

    @Test
    void keysWithShortSegmentsAreStoredUnchanged() {
        String atLimit = "hybris/c/" + "x".repeat(255) + "/y#1_abc";
        assertThat(KeyLayout.stored("hybris/c/key#1_abc")).isEqualTo("hybris/c/key#1_abc");
        assertThat(KeyLayout.stored(atLimit)).isEqualTo(atLimit);
        assertThat(KeyLayout.isHashed(atLimit)).isFalse();
    }

    @Test
    void aKeyWithALongSegmentIsStoredShorterWithShortSegmentsAndMarkedHashed() {
        String key = "hybris/contract/max/" + "x".repeat(1000) + "#1_a";
        String stored = KeyLayout.stored(key);

        assertThat(stored).isEqualTo("hybris/contract/max/" + "x".repeat(128) + "~/"
                + stored.substring(stored.length() - 64));
        assertThat(stored.substring(stored.length() - 64)).matches("[0-9a-f]{64}");
        assertThat(stored.length()).isLessThan(key.length());
        assertThat(stored.split("/")).allSatisfy(s -> assertThat(s.length()).isLessThanOrEqualTo(255));
        assertThat(KeyLayout.isHashed(stored)).isTrue();
        assertThat(KeyLayout.stored(key + "x")).isNotEqualTo(stored);
    }

    @Test
    void theListPrefixOfAPrefixIsAPrefixOfTheStoredFormOfEveryKeyStartingWithIt() {
        Random random = new Random(42);
        String alphabet = "ab/";
        for (int i = 0; i < 5_000; i++) {
            StringBuilder b = new StringBuilder("c/");
            int length = 1 + random.nextInt(700);
            for (int j = 0; j < length; j++) {
                // mostly long runs, so segments of every length around 128 and 255 occur
                b.append(random.nextInt(60) == 0 ? '/' : alphabet.charAt(random.nextInt(2)));
            }
            String key = b.toString().replace("//", "/a/");
            List<String> prefixes = new ArrayList<>(List.of("", key));
            for (int k = 0; k < 5; k++) {
                prefixes.add(key.substring(0, random.nextInt(key.length() + 1)));
            }
            String stored = KeyLayout.stored(key);
            for (String prefix : prefixes) {
                assertThat(stored).as("stored form of %s for prefix %s", key, prefix)
                        .startsWith(KeyLayout.listPrefix(prefix));
            }
            assertThat(stored.length()).isLessThanOrEqualTo(key.length());
        }
    }
}
