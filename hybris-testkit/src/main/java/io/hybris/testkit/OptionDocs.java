/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.support.OptionSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps a provider's options table in {@code docs/} equal to its {@link OptionSet}: the table between the lines
 * {@code <!-- BEGIN options...-->} and {@code <!-- END options -->} must be {@link OptionSet#markdownTable()}.
 * A docs test per provider calls {@link #assertCurrent}; run it with {@code -Dhybris.docs.update=true} to rewrite
 * the table from the descriptors instead.
 *
 * <pre>{@code
 * @Test
 * void theDocsTableIsTheOptions() {
 *     OptionDocs.assertCurrent("clouds-s3.md", S3CloudStoreProvider.OPTIONS);
 * }
 * }</pre>
 * Stateless.
 */
public final class OptionDocs {
    /** The system property that makes {@link #assertCurrent} rewrite the table. */
    public static final String UPDATE_PROPERTY = "hybris.docs.update";

    private static final String BEGIN = "<!-- BEGIN options";
    private static final String END = "<!-- END options -->";

    private OptionDocs() {
    }

    /**
     * Checks (or, with {@value #UPDATE_PROPERTY}{@code =true}, rewrites) the options table of {@code docs/<file>},
     * found in the working directory or a parent of it.
     *
     * @throws AssertionError if the table differs from the descriptors, saying both and how to regenerate it
     */
    public static void assertCurrent(String file, OptionSet options) {
        Path doc = find(file);
        String text;
        try {
            text = Files.readString(doc, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (begin < 0 || end < begin || text.indexOf(BEGIN, begin + 1) >= 0) {
            throw new AssertionError(doc + " needs exactly one options table between a line starting with '"
                    + BEGIN + "' and a line '" + END + "'");
        }
        int tableStart = text.indexOf('\n', begin) + 1;
        String current = text.substring(tableStart, end);
        String wanted = options.markdownTable();
        if (current.equals(wanted)) {
            return;
        }
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            try {
                Files.writeString(doc, text.substring(0, tableStart) + wanted + text.substring(end),
                        StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        throw new AssertionError("the options table in " + doc + " differs from the provider's option descriptors;"
                + " change the descriptors (not the table) and rerun this test with -D" + UPDATE_PROPERTY
                + "=true to regenerate it.\n--- in the docs:\n" + current + "--- from the descriptors:\n" + wanted);
    }

    private static Path find(String file) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path doc = dir.resolve("docs").resolve(file);
            if (Files.isRegularFile(doc)) {
                return doc;
            }
        }
        throw new AssertionError("docs/" + file + " not found in " + Path.of("").toAbsolutePath()
                + " or its parents");
    }
}
