/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.cost.CostSettings;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README's configuration reference names every fixed key a properties file may set (the core keys, encryption's,
 * the cache's common ones), and every fixed key it names is one the binder accepts: the provider options have their
 * own tested tables under docs/ (the {@code *OptionsDocTest} classes).
 */
class ReadmeConfigurationTest {
    /** A backticked key, or a sibling of the one before it ({@code `.duration`} after {@code `hybris.get.x.after`}). */
    private static final Pattern KEY = Pattern.compile("`(hybris\\.[a-z0-9.-]+|\\.[a-z0-9-]+)`");

    @Test
    void readmeListsExactlyTheFixedKeys() throws IOException {
        Set<String> rowKeys = new TreeSet<>(); // the keys a table row is about (its first cell)
        Set<String> mentioned = new TreeSet<>(); // every key a table row names
        for (String line : Files.readAllLines(Path.of("..", "README.md"))) {
            if (!line.startsWith("| `hybris.")) {
                continue;
            }
            String firstCell = line.substring(1, line.indexOf('|', 1));
            rowKeys.addAll(keys(firstCell));
            mentioned.addAll(keys(line));
        }
        Set<String> fixed = PropertiesBinder.fixedKeys();
        assertThat(mentioned).as("keys in README's tables").containsAll(fixed);
        Set<String> others = new TreeSet<>(rowKeys);
        others.removeAll(fixed);
        assertThat(others).as("README rows for keys the binder does not take as fixed keys")
                .allMatch(k -> CostSettings.isCostKey(k) || k.startsWith(CacheSettings.PREFIX)
                        || k.startsWith("hybris.rmds.")); // provider options: their tables are tested under docs/
    }

    private static Set<String> keys(String text) {
        Set<String> keys = new TreeSet<>();
        String last = null;
        Matcher m = KEY.matcher(text);
        while (m.find()) {
            String k = m.group(1);
            if (k.startsWith(".")) {
                if (last == null) {
                    continue;
                }
                k = last.substring(0, last.lastIndexOf('.')) + k;
            } else {
                last = k;
            }
            keys.add(k);
        }
        return keys;
    }
}
