/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.ProviderOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One option of a provider, described once: its name, default, parser, validation and a one-line doc. A provider
 * lists its options in an {@link OptionSet}, from which come the names it accepts
 * ({@link io.hybris.spi.CloudStoreProvider#optionNames()}), the values it reads (with errors that name the full
 * property key, the bad value and the fix) and the table in its documentation ({@link OptionSet#markdownTable()}).
 *
 * <pre>{@code
 * static final Option<Duration> CONNECT_TIMEOUT =
 *         Option.duration("connect-timeout", Duration.ofSeconds(5), "TCP (and TLS) connect timeout").positive();
 *
 * Duration connect = CONNECT_TIMEOUT.get(options);                 // from hybris.cloud.<id>.connect-timeout
 * Duration same = CONNECT_TIMEOUT.orDefault(key, builderValue);    // a builder's value, null for the default
 * }</pre>
 *
 * An option may keep an old name as a {@linkplain #deprecatedAlias(String) deprecated alias}: the alias is still
 * accepted, and the first use of each alias key in a JVM logs a warning naming the new key. Immutable and
 * thread-safe; the fluent methods return modified copies.
 *
 * @param <T> the type of the parsed value
 */
public final class Option<T> {
    private static final Logger LOG = LoggerFactory.getLogger(Option.class);
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    /** Turns an option's text into a value; errors are {@link HybrisConfigurationException}s naming the key. */
    @FunctionalInterface
    public interface Parser<T> {
        /**
         * @param key   the full property key, for messages
         * @param value the option's text, trimmed and not blank
         */
        T parse(String key, String value);
    }

    /** Validates a parsed value; throws {@link HybrisConfigurationException} naming the key, the value and the fix. */
    @FunctionalInterface
    public interface Check<T> {
        /**
         * @param key   the full property key, for messages
         * @param value the value, never null
         */
        void check(String key, T value);
    }

    private final String name;
    private final Parser<T> parser;
    private final T defaultValue;
    private final String defaultText;
    private final String doc;
    private final boolean required;
    private final List<String> aliases;
    private final List<Check<T>> checks;

    private Option(String name, Parser<T> parser, T defaultValue, String defaultText, String doc, boolean required,
                   List<String> aliases, List<Check<T>> checks) {
        this.name = name;
        this.parser = parser;
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.doc = doc;
        this.required = required;
        this.aliases = List.copyOf(aliases);
        this.checks = List.copyOf(checks);
    }

    /**
     * An option of any type.
     *
     * @param name         the option name without prefix, e.g. {@code request-timeout}
     * @param parser       turns the text into a value
     * @param defaultValue the value when the option is not set, or null for none
     * @param doc          one line (Markdown) saying what the option does, for the docs table
     */
    public static <T> Option<T> of(String name, Parser<T> parser, T defaultValue, String doc) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(parser, "parser");
        Objects.requireNonNull(doc, "doc");
        return new Option<>(name, parser, defaultValue, null, doc, false, List.of(), List.of());
    }

    /** A text option. */
    public static Option<String> string(String name, String defaultValue, String doc) {
        return of(name, (key, value) -> value, defaultValue, doc);
    }

    /** A duration such as {@code 250ms}, {@code 30s}, {@code 5m} or {@code PT30S} ({@link ConfigValues#parseDuration}). */
    public static Option<Duration> duration(String name, Duration defaultValue, String doc) {
        return of(name, ConfigValues::parseDuration, defaultValue, doc);
    }

    /** A decimal integer. */
    public static Option<Integer> integer(String name, Integer defaultValue, String doc) {
        return of(name, ConfigValues::parseInt, defaultValue, doc);
    }

    /** A byte size such as {@code 1048576}, {@code 64KiB} or {@code 1GiB} ({@link ConfigValues#parseSize}). */
    public static Option<Long> size(String name, Long defaultValue, String doc) {
        return of(name, ConfigValues::parseSize, defaultValue, doc);
    }

    /** {@code true} or {@code false}. */
    public static Option<Boolean> bool(String name, Boolean defaultValue, String doc) {
        return of(name, ConfigValues::parseBoolean, defaultValue, doc);
    }

    /** A file system path (not checked here: the code that opens it names the key if it cannot). */
    public static Option<Path> path(String name, String doc) {
        return of(name, (key, value) -> Path.of(value), null, doc);
    }

    /** This option, required: reading it when it is not set is an error naming the key. */
    public Option<T> required() {
        return new Option<>(name, parser, defaultValue, defaultText, doc, true, aliases, checks);
    }

    /** This option with the default column of its docs written as {@code text} (Markdown), e.g. "the JDK's CAs". */
    public Option<T> defaultText(String text) {
        return new Option<>(name, parser, defaultValue, Objects.requireNonNull(text, "text"), doc, required, aliases,
                checks);
    }

    /** This option with another one-line doc. */
    public Option<T> doc(String text) {
        return new Option<>(name, parser, defaultValue, defaultText, Objects.requireNonNull(text, "text"), required,
                aliases, checks);
    }

    /** This option with another default. */
    public Option<T> defaultValue(T value) {
        return new Option<>(name, parser, value, defaultText, doc, required, aliases, checks);
    }

    /**
     * This option, also accepted under its old name {@code alias}; using the alias logs a warning once per key and
     * JVM, and setting both names is an error.
     */
    public Option<T> deprecatedAlias(String alias) {
        List<String> more = new ArrayList<>(aliases);
        more.add(Objects.requireNonNull(alias, "alias"));
        return new Option<>(name, parser, defaultValue, defaultText, doc, required, more, checks);
    }

    /** This option with one more validation, run on every value read or checked. */
    public Option<T> check(Check<T> check) {
        List<Check<T>> more = new ArrayList<>(checks);
        more.add(Objects.requireNonNull(check, "check"));
        return new Option<>(name, parser, defaultValue, defaultText, doc, required, aliases, more);
    }

    /** This duration (or number) option, rejecting zero and negative values ("must be positive"). */
    public Option<T> positive() {
        return check((key, value) -> {
            boolean ok = value instanceof Duration d ? !d.isNegative() && !d.isZero()
                    : value instanceof Number n && n.doubleValue() > 0;
            if (!ok) {
                throw new HybrisConfigurationException(key + "=" + value + " must be positive");
            }
        });
    }

    /**
     * This option, rejecting values outside {@code [min, max]} with "must be between min and max" and
     * {@code hint} (may be empty), e.g. {@code " (SDK retries per request)"}.
     */
    public <C extends Comparable<? super C>> Option<T> between(C min, C max, String hint) {
        return check((key, value) -> {
            @SuppressWarnings("unchecked")
            C v = (C) value;
            if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
                throw new HybrisConfigurationException(key + "=" + value + " must be between " + show(min) + " and "
                        + show(max) + hint);
            }
        });
    }

    /** The option name, without prefix. */
    public String name() {
        return name;
    }

    /** Old names still accepted, with a warning. */
    public List<String> deprecatedAliases() {
        return aliases;
    }

    /** The one-line doc. */
    public String doc() {
        return doc;
    }

    /** Whether the option must be set. */
    public boolean isRequired() {
        return required;
    }

    /** The default value, if any. */
    public Optional<T> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    /** The default as the docs show it: "required", the given text, the default value in backticks, or "none". */
    public String defaultText() {
        if (defaultText != null) {
            return defaultText;
        }
        if (required) {
            return "required";
        }
        return defaultValue == null ? "none" : "`" + show(defaultValue) + "`";
    }

    /**
     * The value set under this option's name (or a deprecated alias), parsed and checked, or empty if it is not
     * set (or blank).
     *
     * @throws HybrisConfigurationException naming the key, if the value is invalid or both names are set
     */
    public Optional<T> find(ProviderOptions options) {
        String key = name;
        Optional<String> text = options.get(name);
        for (String alias : aliases) {
            Optional<String> old = options.get(alias);
            if (old.isEmpty()) {
                continue;
            }
            if (text.isPresent()) {
                throw new HybrisConfigurationException(options.qualified(name) + " and " + options.qualified(alias)
                        + " are both set; " + alias + " is the deprecated name of " + name + ": remove "
                        + options.qualified(alias));
            }
            warnDeprecated(options.qualified(alias), options.qualified(name));
            key = alias;
            text = old;
        }
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String qualified = options.qualified(key);
        return Optional.of(check(qualified, parser.parse(qualified, text.get())));
    }

    /**
     * The value set, or the default.
     *
     * @return the value; null only for an option that is neither set, nor required, nor has a default
     * @throws HybrisConfigurationException naming the key, if a required option is missing or a value invalid
     */
    public T get(ProviderOptions options) {
        Optional<T> value = find(options);
        if (value.isPresent()) {
            return value.get();
        }
        if (required) {
            throw new HybrisConfigurationException(options.qualified(name) + " is required but not set: " + doc);
        }
        return defaultValue;
    }

    /**
     * Runs this option's checks on a value that did not come from text (a builder's), and returns it.
     *
     * @param key the full property key, for messages
     */
    public T check(String key, T value) {
        if (value == null) {
            throw new HybrisConfigurationException(key + "=null: set a value" + (defaultValue == null ? ""
                    : " (the default is " + show(defaultValue) + ")"));
        }
        for (Check<T> c : checks) {
            c.check(key, value);
        }
        return value;
    }

    /** {@code value} checked as by {@link #check}, or the default when {@code value} is null. */
    public T orDefault(String key, T value) {
        return value == null ? defaultValue : check(key, value);
    }

    @Override
    public String toString() {
        return "Option[" + name + "]";
    }

    /** Logs, once per alias key and JVM, that {@code aliasKey} is deprecated. Returns whether it logged. */
    static boolean warnDeprecated(String aliasKey, String newKey) {
        if (!WARNED.add(aliasKey)) {
            return false;
        }
        LOG.warn("{} is deprecated and will be removed in a later release; use {} instead", aliasKey, newKey);
        return true;
    }

    /** A value as an option would be written: durations in their largest whole unit ({@code 5m}, {@code 250ms}). */
    private static String show(Object value) {
        if (!(value instanceof Duration d)) {
            return String.valueOf(value);
        }
        long ms = d.toMillis();
        long[] units = {86_400_000L, 3_600_000L, 60_000L, 1000L};
        String[] names = {"d", "h", "m", "s"};
        for (int i = 0; i < units.length; i++) {
            if (ms != 0 && ms % units[i] == 0) {
                return ms / units[i] + names[i];
            }
        }
        return ms == 0 ? "0s" : ms + "ms";
    }
}
