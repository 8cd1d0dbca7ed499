/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The options of one provider, in the order its documentation lists them. The single source of the names the
 * provider accepts ({@link #names()}, deprecated aliases included, for
 * {@link io.hybris.spi.CloudStoreProvider#optionNames()}) and of its documentation table
 * ({@link #markdownTable()}), which a test compares with the table in {@code docs/}.
 *
 * <pre>{@code
 * public static final OptionSet OPTIONS = OptionSet.of(BUCKET, ENDPOINT, CONNECT_TIMEOUT);
 *
 * @Override
 * public Set<String> optionNames() {
 *     return OPTIONS.names();
 * }
 * }</pre>
 * Immutable and thread-safe.
 */
public final class OptionSet {
    private final List<Option<?>> options;
    private final Set<String> names;

    private OptionSet(List<Option<?>> options) {
        Map<String, Option<?>> byName = new LinkedHashMap<>();
        for (Option<?> o : options) {
            for (String n : allNames(o)) {
                if (byName.putIfAbsent(n, o) != null) {
                    throw new IllegalArgumentException("option name '" + n + "' is used twice");
                }
            }
        }
        this.options = List.copyOf(options);
        this.names = Collections.unmodifiableSet(new TreeSet<>(byName.keySet()));
    }

    /** The options, in documentation order; names (and aliases) must be unique. */
    public static OptionSet of(Option<?>... options) {
        return new OptionSet(List.of(options));
    }

    /** This set followed by {@code more}. */
    public OptionSet with(Option<?>... more) {
        List<Option<?>> all = new ArrayList<>(options);
        all.addAll(List.of(more));
        return new OptionSet(all);
    }

    /** The options, in documentation order. */
    public List<Option<?>> options() {
        return options;
    }

    /** Every accepted name, deprecated aliases included, sorted. */
    public Set<String> names() {
        return names;
    }

    /**
     * The documentation table: a header row and one row per option ({@code | `name` | default | doc |}); a
     * deprecated alias is named in its option's row.
     */
    public String markdownTable() {
        StringBuilder out = new StringBuilder("| option | default | meaning |\n|---|---|---|\n");
        for (Option<?> o : options) {
            String doc = o.doc();
            if (!o.deprecatedAliases().isEmpty()) {
                doc += " (deprecated old name" + (o.deprecatedAliases().size() > 1 ? "s " : " ")
                        + String.join(", ", o.deprecatedAliases().stream().map(a -> "`" + a + "`").toList())
                        + ": still accepted, with a warning)";
            }
            out.append("| `").append(o.name()).append("` | ").append(o.defaultText()).append(" | ").append(doc)
                    .append(" |\n");
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return "OptionSet" + names;
    }

    private static List<String> allNames(Option<?> o) {
        List<String> all = new ArrayList<>();
        all.add(o.name());
        all.addAll(o.deprecatedAliases());
        return all;
    }
}
